import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalControlPlane } from "../server";
import { findKubernetesBinaries } from "./binaries";

const dir = mkdtempSync(path.join(os.tmpdir(), "clusterform-k8s-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findKubernetesBinaries", () => {
  it("names every missing program, its variable and the command that builds it", () => {
    const env = { CLUSTERFORM_CACHE: path.join(dir, "empty-cache"), CLUSTERFORM_KINE: path.join(dir, "no-kine") };
    const found = findKubernetesBinaries(env);
    expect(found.ok).toBe(false);
    const message = found.ok ? "" : found.message;
    expect(message).toContain(`${path.join(dir, "empty-cache", "kubernetes", "kube-apiserver-v1.33.13", "kube-apiserver")} (or set CLUSTERFORM_KUBE_APISERVER)`);
    expect(message).toContain("(or set CLUSTERFORM_KUBE_CONTROLLER_MANAGER)");
    expect(message).toContain(`${path.join(dir, "no-kine")} (or set CLUSTERFORM_KINE)`);
    expect(message).toContain("Run `. scripts/setup.sh`");
  });

  it("takes executables from the environment variables", () => {
    const env: Record<string, string> = {};
    for (const [name, variable] of [
      ["kube-apiserver", "CLUSTERFORM_KUBE_APISERVER"],
      ["kube-controller-manager", "CLUSTERFORM_KUBE_CONTROLLER_MANAGER"],
      ["kine", "CLUSTERFORM_KINE"],
    ]) {
      const file = path.join(dir, name);
      writeFileSync(file, "#!/bin/sh\n");
      chmodSync(file, 0o755);
      env[variable] = file;
    }
    expect(findKubernetesBinaries(env)).toEqual({
      ok: true,
      binaries: { kubeApiserver: env.CLUSTERFORM_KUBE_APISERVER, kubeControllerManager: env.CLUSTERFORM_KUBE_CONTROLLER_MANAGER, kine: env.CLUSTERFORM_KINE },
    });
  });
});

describe("startLocalControlPlane({ kubernetes: true }) without the binaries", () => {
  it("refuses to start, with the message, before it creates anything", async () => {
    const saved = process.env.CLUSTERFORM_KINE;
    process.env.CLUSTERFORM_KINE = path.join(dir, "missing-kine");
    const dataDir = path.join(dir, "never-created");
    try {
      await expect(startLocalControlPlane({ port: 0, dataDir, kubernetes: true })).rejects.toThrow(/missing-kine \(or set CLUSTERFORM_KINE\)/);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.CLUSTERFORM_KINE;
      else process.env.CLUSTERFORM_KINE = saved;
    }
  });
});
