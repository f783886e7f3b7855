import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { describe, expect, it } from "vitest";
import { startLocalControlPlane } from "../emulator";
import type { ApiServerView } from "../emulator/kubernetes/host";
import { Cluster, ClusterStatus } from "../proto/gen/cmassh/api_pb";
import { Phase, VClusterService } from "../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { median, publish, round } from "./support/report";

// What `clusterform-local --kubernetes` costs: the time from a create call to RUNNING with and
// without it (time scale 1: cma-ssh's create takes 3 s, vcluster's 2 s, and with --kubernetes the
// API server starts with the create and RUNNING waits for it), how long an API server takes from
// its start to /readyz, and the memory of each cluster's processes (kube-apiserver and
// kube-controller-manager). Measured on the plane itself, no engine: the engine adds the same on both sides.
const CLUSTERS = 3;
const POLL_MS = 25;

async function until(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out: the benchmark could not measure");
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

interface Run {
  cmasshMs: number[];
  vclusterMs: number[];
  servers: ApiServerView[];
}

async function measure(kubernetes: boolean): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clusterform-bench-k8s-"));
  const plane = await startLocalControlPlane({ port: 0, dataDir, timeScale: 1, kubernetes });
  const transport = createGrpcTransport({ baseUrl: plane.url });
  const cmassh = createClient(Cluster, transport);
  const vc = createClient(VClusterService, transport);
  const run: Run = { cmasshMs: [], vclusterMs: [], servers: [] };
  try {
    for (let i = 0; i < CLUSTERS; i++) {
      let start = performance.now();
      await cmassh.createCluster({ name: `c${i}`, k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
      await until(async () => (await cmassh.getCluster({ name: `c${i}` })).cluster?.status === ClusterStatus.RUNNING);
      run.cmasshMs.push(performance.now() - start);
      start = performance.now();
      await vc.createVCluster({ name: `v${i}`, namespace: "bench", spec: { kubernetesVersion: "1.29.0", replicas: 1 } });
      await until(async () => (await vc.getVCluster({ name: `v${i}`, namespace: "bench" })).vcluster?.status?.phase === Phase.RUNNING);
      run.vclusterMs.push(performance.now() - start);
    }
    if (kubernetes) {
      // Let the controller managers finish their first sync before reading memory.
      await new Promise((r) => setTimeout(r, 10_000));
      const view = (await (await fetch(`${plane.url}/_local/kubernetes/api-servers`)).json()) as { apiServers: ApiServerView[] };
      run.servers = view.apiServers;
    }
  } finally {
    await plane.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return run;
}

describe("kubernetes: the cost of --kubernetes", () => {
  it("measures create-to-RUNNING with and without it, API server start-to-ready and memory", async () => {
    const without = await measure(false);
    const withK8s = await measure(true);
    expect(withK8s.servers.length).toBe(2 * CLUSTERS);
    expect(withK8s.servers.every((s) => s.state === "running" && s.rssBytes > 0)).toBe(true);
    const mib = (b: number) => round(b / 2 ** 20, 0);
    const readyMs = withK8s.servers.map((s) => s.readyMs - s.startedMs);
    const rows = [
      { what: "cma-ssh create -> RUNNING, median ms", without: round(median(without.cmasshMs), 0), with: round(median(withK8s.cmasshMs), 0), ratio: round(median(withK8s.cmasshMs) / median(without.cmasshMs)) },
      { what: "vcluster create -> RUNNING, median ms", without: round(median(without.vclusterMs), 0), with: round(median(withK8s.vclusterMs), 0), ratio: round(median(withK8s.vclusterMs) / median(without.vclusterMs)) },
      { what: "API server start -> /readyz, median ms (max)", without: "-", with: `${round(median(readyMs), 0)} (${round(Math.max(...readyMs), 0)})`, ratio: "-" },
      { what: "RSS per cluster (apiserver + controller manager), median MiB (max)", without: "-", with: `${mib(median(withK8s.servers.map((s) => s.rssBytes)))} (${mib(Math.max(...withK8s.servers.map((s) => s.rssBytes)))})`, ratio: "-" },
    ];
    publish("kubernetes", `--kubernetes: ${CLUSTERS} cma-ssh clusters and ${CLUSTERS} vclusters created one after another, time scale 1, load average ${os.loadavg()[0].toFixed(1)}`, rows, { without, with: withK8s });
  });
});
