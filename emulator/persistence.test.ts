import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../proto/gen/cmassh/api_pb";
import { startTestPlane, type TestPlane, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

describe("restart with the same data directory", () => {
  it("keeps clusters, pools and finished state", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({
      name: "c1",
      k8sVersion: "1.30.10",
      controlPlaneNodes: { instanceType: "standard", count: 3, labels: [{ name: "role", value: "cp" }] },
      workerNodePools: [{ name: "p1", instanceType: "gpu", count: 2, labels: [{ name: "a", value: "b" }] }],
    });
    t.clock.advance(3000);
    const kubeconfig = (await t.cmassh.getCluster({ name: "c1" })).cluster!.kubeconfig;
    const before = (await t.http("GET", "/_local/cmassh/clusters")).body;
    await t.close();

    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    expect((await t.http("GET", "/_local/cmassh/clusters")).body).toEqual(before);
    expect(before).toMatchObject({
      clusters: [
        {
          name: "c1",
          status: "RUNNING",
          controlPlane: { instanceType: "standard", count: 3, labels: [{ name: "role", value: "cp" }] },
          pools: [{ name: "p1", instanceType: "gpu", count: 2, labels: [{ name: "a", value: "b" }] }],
        },
      ],
    });
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.kubeconfig).toBe(kubeconfig);
  });

  it("finishes an in-flight create at the time it would have, across the restart", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1" });
    t.clock.advance(1000);
    await t.close();

    t.clock.advance(1000);
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.PROVISIONING);
    t.clock.advance(1000);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.RUNNING);
  });

  it("finishes an operation that ended while the server was down", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    t.clock.advance(3000);
    await t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" });
    await t.close();

    t.clock.advance(60_000);
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    expect((await t.http("GET", "/_local/cmassh/clusters")).body).toMatchObject({
      clusters: [{ name: "c1", status: "RUNNING", k8sVersion: "1.31.6", operationsInFlight: 0 }],
    });
  });

  it("keeps the audit log and continues its sequence", async () => {
    t = await startTestPlane();
    await t.cmassh.getClusterList({});
    await t.close();
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    await t.cmassh.getVersionInformation({});
    const audit = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number; operation: string }[] };
    expect(audit.entries.map((e) => [e.seq, e.operation])).toEqual([
      [1, "GetClusterList"],
      [2, "GetVersionInformation"],
    ]);
  });

  it("uses the real clock by default: an in-flight create completes after a restart", async () => {
    const { startLocalControlPlane } = await import("./server");
    const { makeDataDir } = await import("./testing");
    const dataDir = makeDataDir();
    let plane = await startLocalControlPlane({ port: 0, dataDir, timeScale: 0.02 });
    const create = await fetch(`${plane.url}/api/v1/cluster`, { method: "POST", body: JSON.stringify({ name: "c1" }) });
    expect(create.status).toBe(200);
    await plane.close();
    plane = await startLocalControlPlane({ port: 0, dataDir, timeScale: 0.02 });
    try {
      // 3 s x 0.02 = 60 ms: poll as a client would, rather than sleeping a fixed time.
      let status = "";
      for (let i = 0; i < 100 && status !== "RUNNING"; i++) {
        const reply = (await (await fetch(`${plane.url}/api/v1/cluster?name=c1`)).json()) as { cluster: { status: string } };
        status = reply.cluster.status;
        if (status !== "RUNNING") await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(status).toBe("RUNNING");
    } finally {
      await plane.close();
    }
  });
});
