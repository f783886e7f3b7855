import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EngineStack, openStack } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { copyProgram, packageWorkspace } from "../harness/workspace";

// The kubeconfig outputs of a cma-ssh cluster and a vcluster, created through the engine on one
// plane started with --kubernetes, reach each cluster's own API server; destroy takes the API
// servers away. (test/e2e-kubernetes/workloads.test.ts deploys onto them with @pulumi/kubernetes.)
const run = promisify(execFile);
const kubectlBinary = process.env.CLUSTERFORM_KUBECTL ?? "kubectl";

interface ApiServers {
  apiServers: { key: string; state: string; pids: number[] }[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("kubeconfig outputs on a plane with --kubernetes, through the engine", () => {
  let plane: LocalPlane;
  let vc: EngineStack;
  let cm: EngineStack;
  let workspace: string;

  beforeAll(async () => {
    workspace = packageWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.1, flags: ["--kubernetes"] });
    const config = { "clusterform:endpoint": { value: plane.url } };
    [vc, cm] = await Promise.all([
      openStack({ programDir: copyProgram(workspace, "vcluster"), config: { ...config, "test:vc": { value: JSON.stringify({ namespace: "team-k8s" }) } } }),
      openStack({ programDir: copyProgram(workspace, "cmassh"), config }),
    ]);
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("hands out kubeconfigs that kubectl uses against each cluster's own API server", async () => {
    const [vcUp, cmUp] = await Promise.all([vc.up(), cm.up()]);
    expect(vcUp.outputs.phase).toBe("RUNNING");
    expect(cmUp.outputs.status).toBe("RUNNING");
    const servers = (await plane.admin<ApiServers>("/_local/kubernetes/api-servers")).apiServers;
    expect(servers.map((s) => [s.key.split("/")[0], s.state])).toEqual([
      ["cmassh", "running"],
      ["vcluster", "running"],
    ]);
    const files: Record<string, string> = {};
    for (const [name, stack] of [
      ["vcluster", vc],
      ["cmassh", cm],
    ] as const) {
      const output = (await stack.stack.outputs()).kubeconfig;
      expect(output.secret).toBe(true);
      files[name] = path.join(workspace, `${name}-${process.pid}.kubeconfig`);
      writeFileSync(files[name], String(output.value), { mode: 0o600 });
    }
    const kubectl = async (cluster: string, ...args: string[]) => (await run(kubectlBinary, ["--kubeconfig", files[cluster], "--request-timeout=20s", ...args])).stdout;
    await kubectl("cmassh", "create", "namespace", "made-on-cmassh");
    expect(await kubectl("cmassh", "get", "namespaces", "-o", "name")).toContain("namespace/made-on-cmassh");
    expect(await kubectl("vcluster", "get", "namespaces", "-o", "name")).not.toContain("namespace/made-on-cmassh");
    expect(await kubectl("vcluster", "auth", "can-i", "create", "deployments", "--all-namespaces")).toBe("yes\n");
  });

  it("takes each cluster's API server away with the cluster on destroy", async () => {
    const before = (await plane.admin<ApiServers>("/_local/kubernetes/api-servers")).apiServers;
    await Promise.all([vc.destroy(), cm.destroy()]);
    const deadline = Date.now() + 30_000;
    let after = before;
    while (after.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      after = (await plane.admin<ApiServers>("/_local/kubernetes/api-servers")).apiServers;
    }
    expect(after).toEqual([]);
    expect(before.flatMap((s) => s.pids).filter(alive)).toEqual([]);
  });
});
