import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { startTestPlane, type TestPlane, removeDataDirs } from "../testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

interface AdminCluster {
  name: string;
  status: string;
  operationsInFlight: number;
  pools: { name: string; instanceType: string; count: number; labels: { name: string; value: string }[] }[];
}

async function adminCluster(name: string): Promise<AdminCluster> {
  const body = (await t.http("GET", "/_local/cmassh/clusters")).body as { clusters: AdminCluster[] };
  return body.clusters.find((c) => c.name === name)!;
}

async function codeOf(call: Promise<unknown>): Promise<Code | "OK"> {
  return call.then(
    () => "OK" as const,
    (error: unknown) => ConnectError.from(error).code,
  );
}

async function runningCluster(): Promise<void> {
  await t.cmassh.createCluster({ name: "c1", workerNodePools: [{ name: "p1", instanceType: "standard", count: 1 }] });
  t.clock.advance(3000);
}

describe("node pools", () => {
  it("adds a pool: RECONCILING for 1.5 s, then RUNNING", async () => {
    t = await startTestPlane();
    await runningCluster();
    await t.cmassh.addNodePool({
      clusterName: "c1",
      workerNodePools: [{ name: "gpu", instanceType: "gpu", count: 2, labels: [{ name: "accel", value: "yes" }] }],
    });
    const reconciling = await adminCluster("c1");
    expect(reconciling.status).toBe("RECONCILING");
    expect(reconciling.pools).toContainEqual({ name: "gpu", instanceType: "gpu", count: 2, labels: [{ name: "accel", value: "yes" }] });
    t.clock.advance(1499);
    expect((await adminCluster("c1")).status).toBe("RECONCILING");
    t.clock.advance(1);
    expect((await adminCluster("c1")).status).toBe("RUNNING");
  });

  it("scales a pool: RECONCILING for 1 s with the new count", async () => {
    t = await startTestPlane();
    await runningCluster();
    await t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "p1", count: 5 }] });
    expect(await adminCluster("c1")).toMatchObject({ status: "RECONCILING", pools: [{ name: "p1", count: 5 }] });
    t.clock.advance(1000);
    expect((await adminCluster("c1")).status).toBe("RUNNING");
  });

  it("deletes a pool: RECONCILING for 1 s, pool gone", async () => {
    t = await startTestPlane();
    await runningCluster();
    await t.cmassh.deleteNodePool({ clusterName: "c1", nodePoolNames: ["p1"] });
    expect(await adminCluster("c1")).toMatchObject({ status: "RECONCILING", pools: [] });
    t.clock.advance(1000);
    expect((await adminCluster("c1")).status).toBe("RUNNING");
  });

  it("accepts concurrent AddNodePool calls and reconciles until the last one ends", async () => {
    t = await startTestPlane();
    await runningCluster();
    const names = ["a", "b", "c", "d", "e"];
    const replies = await Promise.all(
      names.map((name) => t.cmassh.addNodePool({ clusterName: "c1", workerNodePools: [{ name, count: 1 }] })),
    );
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(await adminCluster("c1")).toMatchObject({ status: "RECONCILING", operationsInFlight: 5 });
    t.clock.advance(1000);
    await t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "a", count: 3 }] });
    t.clock.advance(500);
    expect(await adminCluster("c1")).toMatchObject({ status: "RECONCILING", operationsInFlight: 1 });
    t.clock.advance(500);
    const done = await adminCluster("c1");
    expect(done.status).toBe("RUNNING");
    expect(done.pools.map((p) => p.name)).toEqual(["a", "b", "c", "d", "e", "p1"]);
  });

  it("keeps a PROVISIONING cluster PROVISIONING until create ends, then RECONCILING while ops remain", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1" });
    t.clock.advance(2500);
    await t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" });
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.PROVISIONING);
    t.clock.advance(500);
    const reconciling = (await t.cmassh.getCluster({ name: "c1" })).cluster!;
    expect(reconciling.status).toBe(ClusterStatus.RECONCILING);
    expect(reconciling.kubeconfig).not.toBe("");
    t.clock.advance(1500);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.RUNNING);
  });

  it.each([
    ["AddNodePool on a missing cluster", () => t.cmassh.addNodePool({ clusterName: "ghost", workerNodePools: [{ name: "x" }] }), Code.NotFound],
    ["DeleteNodePool on a missing cluster", () => t.cmassh.deleteNodePool({ clusterName: "ghost", nodePoolNames: ["p1"] }), Code.NotFound],
    ["DeleteNodePool of a missing pool", () => t.cmassh.deleteNodePool({ clusterName: "c1", nodePoolNames: ["p1", "nope"] }), Code.NotFound],
    ["ScaleNodePool on a missing cluster", () => t.cmassh.scaleNodePool({ clusterName: "ghost", nodePools: [{ name: "p1" }] }), Code.NotFound],
    ["ScaleNodePool of a missing pool", () => t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "nope", count: 1 }] }), Code.NotFound],
    ["AddNodePool of an existing pool", () => t.cmassh.addNodePool({ clusterName: "c1", workerNodePools: [{ name: "p1" }] }), Code.Internal],
    ["AddNodePool with a bad pool name", () => t.cmassh.addNodePool({ clusterName: "c1", workerNodePools: [{ name: "P_1" }] }), Code.Internal],
    ["ScaleNodePool to a negative count", () => t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "p1", count: -1 }] }), Code.InvalidArgument],
  ])("answers %s with the right code and changes nothing", async (_label, call, code) => {
    t = await startTestPlane();
    await runningCluster();
    expect(await codeOf(call())).toBe(code);
    expect(await adminCluster("c1")).toMatchObject({
      status: "RUNNING",
      operationsInFlight: 0,
      pools: [{ name: "p1", count: 1 }],
    });
  });
});
