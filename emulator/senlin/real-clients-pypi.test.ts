import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalControlPlane, startLocalControlPlane } from "../server";
import { makeDataDir, removeDataDirs } from "../testing";

/**
 * openstacksdk at its current PyPI release (4.22; scripts/setup/openstack-pypi.sh) against the local
 * Keystone and Senlin, with the driver of real-clients.test.ts, which runs Debian 12's 0.101: what
 * an operator installs with pip today must work as well. (The CLI's current PyPI releases do not
 * work together for Senlin, see that script; the Debian CLI stays the tested one.)
 */
const PYTHON = process.env.CLUSTERFORM_OPENSTACK_PYPI_PYTHON ?? "";
const HERE = path.join(__dirname, "real-clients");

function osEnv(plane: LocalControlPlane): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OS_")));
  return {
    ...inherited,
    OS_AUTH_URL: `${plane.url}/v3`,
    OS_USERNAME: "admin",
    OS_PASSWORD: "admin",
    OS_PROJECT_NAME: "admin",
    OS_USER_DOMAIN_NAME: "Default",
    OS_PROJECT_DOMAIN_NAME: "Default",
    OS_IDENTITY_API_VERSION: "3",
  };
}

function python(script: string, env: NodeJS.ProcessEnv, stdin = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, [path.join(HERE, script)], { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
    child.stdin?.end(stdin);
  });
}

describe("openstacksdk's current PyPI release against the local Keystone and Senlin", () => {
  let plane: LocalControlPlane;

  beforeAll(async () => {
    if (!PYTHON || !fs.existsSync(PYTHON)) {
      throw new Error("CLUSTERFORM_OPENSTACK_PYPI_PYTHON is not set: run the tests after `. scripts/setup.sh` (its openstack-pypi step)");
    }
    plane = await startLocalControlPlane({ port: 0, dataDir: makeDataDir(), timeScale: 0 });
  });
  afterAll(async () => {
    await plane?.close();
    removeDataDirs();
  });

  it("serves openstacksdk 4.22 as the Debian 0.101 one: discovery, create status, scale, rename, webhook, rolling update, errors", async () => {
    const out = JSON.parse(await python("sdk-driver.py", osEnv(plane)));
    expect(out.discovery).toEqual({ url: `${plane.url}/v1`, min: "1.0", max: "1.14" });
    expect(out.profile).toEqual({ ok: "sdk-prof" });
    expect(out.create).toEqual({ ok: "INIT" });
    expect(out.active).toEqual({ ok: "ACTIVE" });
    expect(out.scale_out).toEqual({ ok: true });
    expect(out.size_after_scale_out).toEqual({ ok: 2 });
    expect(out.update).toEqual({ ok: "sdk-c" });
    expect(out.renamed).toEqual({ ok: "sdk-c2" });
    expect(out.trigger).toEqual({ ok: 202 });
    expect(out.size_after_trigger).toEqual({ ok: 3 });
    expect(out.missing).toEqual({ status: 404, message: "The cluster 'no-such-cluster' could not be found." });
    expect(out.roll).toEqual({ ok: { batches: [1, 1, 1], derived: true, profiles: ["sdk-prof2"], cluster_profile: "sdk-prof2" } });
    expect(out.delete).toEqual({ ok: true });
    expect(out.deleted).toEqual({ ok: true });
  });
});
