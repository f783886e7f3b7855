import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { Phase } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { makeDataDir, removeDataDirs } from "../testing";
import { startVclusterPlane, type VclusterTestPlane } from "../vcluster/testing";
import type { ApiServerView } from "./host";
import { KUBE_VERSION } from "./binaries";

// Real kube-apiserver, kube-controller-manager and kine processes (the set-up builds them): one plane
// with one cma-ssh cluster and one vcluster, restarted once, shared by the tests in order.
const run = promisify(execFile);
const kubectlBinary = process.env.CLUSTERFORM_KUBECTL ?? path.join(process.env.HOME ?? "", ".cache/clusterform/kubernetes", `kube-apiserver-v${KUBE_VERSION}`, "kubectl");

afterAll(async () => {
  await t?.close();
  removeDataDirs();
});

let t: VclusterTestPlane;
const dataDir = makeDataDir();
const kubeconfigs: Record<"cmassh" | "vcluster", string> = { cmassh: "", vcluster: "" };

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function apiServers(): Promise<{ kinePid: number; apiServers: ApiServerView[] }> {
  return (await t.http("GET", "/_local/kubernetes/api-servers")).body as { kinePid: number; apiServers: ApiServerView[] };
}

/** Runs kubectl against a cluster with its kubeconfig; resolves to stdout. */
async function kubectl(cluster: keyof typeof kubeconfigs, ...args: string[]): Promise<string> {
  const file = path.join(dataDir, `${cluster}.kubeconfig`);
  writeFileSync(file, kubeconfigs[cluster], { mode: 0o600 });
  const { stdout } = await run(kubectlBinary, ["--kubeconfig", file, "--request-timeout=20s", ...args]);
  return stdout;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cmasshRunning(): Promise<string> {
  return until("the cma-ssh cluster to be RUNNING", async () => {
    const c = (await t.cmassh.getCluster({ name: "alpha" })).cluster!;
    return c.status === ClusterStatus.RUNNING ? c.kubeconfig : undefined;
  });
}

async function vclusterRunning(): Promise<string> {
  return until("the vcluster to be RUNNING", async () => {
    const v = (await t.vc.getVCluster({ name: "dev", namespace: "team", includeKubeconfig: true })).vcluster!;
    return v.status?.phase === Phase.RUNNING ? Buffer.from(v.status.kubeconfig, "base64").toString("utf8") : undefined;
  });
}

describe("clusterform-local --kubernetes", { timeout: 240_000 }, () => {
  it("reports a cluster RUNNING only once its own API server answers, and its kubeconfig reaches it", async () => {
    t = await startVclusterPlane({ dataDir, kubernetes: true, timeScale: 0 });
    await t.cmassh.createCluster({ name: "alpha", k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
    await t.vc.createVCluster({ name: "dev", namespace: "team", spec: { kubernetesVersion: "1.29.0", replicas: 1 } });
    kubeconfigs.cmassh = await cmasshRunning();
    kubeconfigs.vcluster = await vclusterRunning();
    const { apiServers: servers } = await apiServers();
    expect(servers.map((s) => [s.key.split("/")[0], s.state])).toEqual([
      ["cmassh", "running"],
      ["vcluster", "running"],
    ]);
    for (const [api, kubeconfig] of Object.entries(kubeconfigs)) {
      const server = servers.find((s) => s.key.startsWith(`${api}/`))!;
      expect(kubeconfig).toContain(`server: https://127.0.0.1:${server.port}\n`);
      expect(kubeconfig).toMatch(/certificate-authority-data: [A-Za-z0-9+/=]{100,}\n/);
      expect(kubeconfig).not.toContain("insecure-skip-tls-verify");
    }
    expect(servers[0].port).not.toBe(servers[1].port);
    // The version the API server reports is the build's, whatever the cluster's kubernetesVersion says.
    expect(JSON.parse(await kubectl("cmassh", "get", "--raw", "/version")).gitVersion).toBe(`v${KUBE_VERSION}`);
  });

  it("keeps two clusters' objects apart, and rejects a token of the other cluster", async () => {
    await kubectl("cmassh", "create", "namespace", "only-in-alpha");
    await kubectl("cmassh", "create", "configmap", "settings", "-n", "only-in-alpha", "--from-literal=color=blue");
    await kubectl("vcluster", "create", "namespace", "only-in-dev");
    const alphaNamespaces = await kubectl("cmassh", "get", "namespaces", "-o", "name");
    const devNamespaces = await kubectl("vcluster", "get", "namespaces", "-o", "name");
    expect(alphaNamespaces).toContain("namespace/only-in-alpha");
    expect(alphaNamespaces).not.toContain("namespace/only-in-dev");
    expect(devNamespaces).toContain("namespace/only-in-dev");
    expect(devNamespaces).not.toContain("namespace/only-in-alpha");
    const alphaToken = /token: (\w+)/.exec(kubeconfigs.cmassh)![1];
    const devToken = /token: (\w+)/.exec(kubeconfigs.vcluster)![1];
    const mixed = kubeconfigs.vcluster.replace(devToken, alphaToken);
    const saved = kubeconfigs.vcluster;
    kubeconfigs.vcluster = mixed;
    await expect(kubectl("vcluster", "get", "namespaces")).rejects.toThrow(/Unauthorized|provide credentials/);
    kubeconfigs.vcluster = saved;
  });

  it("stops a suspended vcluster's API server and brings it back with its data on resume", async () => {
    const before = (await apiServers()).apiServers.find((s) => s.key.startsWith("vcluster/"))!;
    await t.vc.suspendVCluster({ name: "dev", namespace: "team" });
    await until("the vcluster's API server to stop", async () => {
      const s = (await apiServers()).apiServers.find((x) => x.key.startsWith("vcluster/"))!;
      return s.state === "stopped" && before.pids.every((pid) => !alive(pid)) ? true : undefined;
    });
    await expect(kubectl("vcluster", "get", "namespaces")).rejects.toThrow(/refused/);
    await t.vc.resumeVCluster({ name: "dev", namespace: "team" });
    expect(await vclusterRunning()).toBe(kubeconfigs.vcluster);
    expect(await kubectl("vcluster", "get", "namespaces", "-o", "name")).toContain("namespace/only-in-dev");
  });

  it("stops every API server, controller manager and kine when the plane stops, and restarts them with the plane", async () => {
    const { kinePid, apiServers: servers } = await apiServers();
    const pids = [kinePid, ...servers.flatMap((s) => s.pids)];
    expect(pids.length).toBe(5);
    expect(pids.every(alive)).toBe(true);
    await t.close();
    expect(pids.filter(alive)).toEqual([]);

    t = await startVclusterPlane({ dataDir, kubernetes: true, timeScale: 0 });
    await until("both API servers to serve again", async () => {
      const list = (await apiServers()).apiServers;
      return list.length === 2 && list.every((s) => s.state === "running") ? true : undefined;
    });
    // Same port and CA: the kubeconfigs handed out before the restart still work.
    expect(await cmasshRunning()).toBe(kubeconfigs.cmassh);
    expect(await kubectl("cmassh", "get", "configmap", "settings", "-n", "only-in-alpha", "-o", "jsonpath={.data.color}")).toBe("blue");
  });

  it.each([
    ["cma-ssh cluster", "cmassh", () => t.cmassh.deleteCluster({ name: "alpha" }), async () => !(await t.cmassh.getClusterList({})).clusters.some((c) => c.name === "alpha")],
    ["vcluster", "vcluster", () => t.vc.deleteVCluster({ name: "dev", namespace: "team" }), async () => (await t.vc.listVClusters({ namespace: "team" })).vclusters.length === 0],
  ] as const)("deletes a %s's API server, its folder and its objects in kine with it, after the restart", async (_label, api, remove, gone) => {
    const server = (await apiServers()).apiServers.find((s) => s.key.startsWith(`${api}/`))!;
    const kine = new DatabaseSync(path.join(dataDir, "kubernetes", "kine.db"), { readOnly: true });
    try {
      const count = (prefix: string) => Number((kine.prepare("SELECT COUNT(*) AS n FROM kine WHERE substr(name, 1, ?) = ?").get(prefix.length, prefix) as { n: number }).n);
      expect(count(`${server.prefix}/`)).toBeGreaterThan(0);
      await remove();
      await until("the cluster and its API server to go", async () => ((await gone()) && !(await apiServers()).apiServers.some((s) => s.key === server.key) ? true : undefined));
      expect(server.pids.filter(alive)).toEqual([]);
      expect(existsSync(path.join(dataDir, "kubernetes", server.key.replace("/", "_")))).toBe(false);
      expect(count(`${server.prefix}/`)).toBe(0);
    } finally {
      kine.close();
    }
  });
});
