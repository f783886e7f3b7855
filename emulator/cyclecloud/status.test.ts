import { describe, expect, it } from "vitest";
import type { TestPlane } from "../testing";
import { type CycleCloudCaller, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

interface Bucket extends Record<string, unknown> {
  activeNodes?: string[];
}
interface Status {
  maxCount: number;
  maxCoreCount: number;
  state: string;
  targetState: string;
  nodes?: { Name: string }[];
  nodearrays: { name: string; maxCount: number; maxCoreCount: number; nodearray: Record<string, unknown>; buckets: Bucket[] }[];
}

async function status(query = ""): Promise<Status> {
  const response = await cc.get(`/clusters/demo/status${query}`);
  expect(response.status).toBe(200);
  return response.body as Status;
}

describe("GET /clusters/{cluster}/status", () => {
  it("describes the demo cluster's nodearrays and buckets", async () => {
    const body = await status();
    expect(body).toMatchObject({ state: "Started", targetState: "Started", maxCount: 22, maxCoreCount: 52 });
    expect(body.nodes).toBeUndefined();
    expect(body.nodearrays.map((n) => [n.name, n.maxCount, n.maxCoreCount, n.nodearray.MachineType])).toEqual([
      ["execute", 20, 40, "Standard_F2s_v2"],
      ["gpu", 2, 12, "Standard_NC6"],
    ]);
    expect(body.nodearrays[1].buckets[0]).toEqual({
      bucketId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      definition: { machineType: "Standard_NC6" },
      maxCount: 2,
      maxCoreCount: 12,
      activeCount: 0,
      activeCoreCount: 0,
      availableCount: 2,
      availableCoreCount: 12,
      quotaCount: 2,
      quotaCoreCount: 12,
      familyQuotaCount: 2,
      familyQuotaCoreCount: 12,
      consumedCoreCount: 0,
      familyConsumedCoreCount: 0,
      maxPlacementGroupSize: 100,
      maxPlacementGroupCoreSize: 600,
      placementGroups: [],
      valid: true,
      invalidReason: "",
      lastCapacityFailure: -1,
      virtualMachine: { vcpuCount: 6, pcpuCount: 6, gpuCount: 1, memory: 56, infiniband: false, vcpuQuotaCount: 6 },
    });
  });

  it("keeps bucket ids stable across calls and distinct across buckets", async () => {
    const ids = (s: Status) => s.nodearrays.map((n) => n.buckets[0].bucketId);
    const first = ids(await status());
    expect(ids(await status())).toEqual(first);
    expect(new Set(first).size).toBe(2);
  });

  it("counts nodes that hold or acquire a VM as active, with their placement groups", async () => {
    await cc.create("execute", 2, { placementGroupId: "pg-a" });
    t.clock.advance(5000);
    await cc.create("execute", 1);
    await cc.post("/clusters/demo/nodes/deallocate", { names: ["execute-1"] });
    t.clock.advance(2000);
    const bucket = (await status("?nodes=true")).nodearrays[0].buckets[0];
    expect(bucket).toMatchObject({
      activeCount: 2,
      activeCoreCount: 4,
      activeNodes: ["execute-2", "execute-3"],
      availableCount: 18,
      availableCoreCount: 36,
      consumedCoreCount: 4,
      placementGroups: [{ name: "pg-a", activeCount: 1, activeCoreCount: 2 }],
    });
    expect((await status()).maxCount).toBe(20);
  });

  it("lists the cluster's nodes only with nodes=true", async () => {
    await cc.create("gpu", 1);
    expect((await status("?nodes=true")).nodes?.map((n) => n.Name)).toEqual(["gpu-1"]);
    expect((await status("?nodes=false")).nodes).toBeUndefined();
    expect((await status("?nodes=false")).nodearrays[1].buckets[0].activeNodes).toBeUndefined();
  });

  it("bounds a bucket by the nodearray and cluster limits too", async () => {
    await t.http("POST", "/_local/cyclecloud/clusters", {
      name: "demo",
      maxCount: 5,
      nodearrays: [
        { name: "a", machineType: "Standard_D4s_v3", quota: 10, maxCoreCount: 12 },
        { name: "b", machineType: "Standard_D2s_v3", quota: 10 },
      ],
    });
    await cc.create("b", 3);
    const body = await status();
    expect(body).toMatchObject({ maxCount: 2, maxCoreCount: 26 });
    expect(body.nodearrays.map((n) => [n.buckets[0].maxCount, n.buckets[0].availableCount])).toEqual([
      [3, 2],
      [5, 2],
    ]);
  });

  it("reports cores consumed in a family and region across clusters", async () => {
    await t.http("POST", "/_local/cyclecloud/clusters", { name: "other", nodearrays: [{ name: "x", machineType: "Standard_F4s_v2", quota: 4 }] });
    await cc.post("/clusters/other/nodes/create", { sets: [{ nodearray: "x", count: 1 }] });
    await cc.create("execute", 1);
    expect((await status()).nodearrays[0].buckets[0]).toMatchObject({ activeCoreCount: 2, consumedCoreCount: 6 });
  });

  it.each([
    ["nodes=yes", 400, 'invalid query parameter "nodes": got "yes", allowed: true, false\n'],
  ])("answers %s with %i", async (query, code, text) => {
    expect(await cc.get(`/clusters/demo/status?${query}`)).toMatchObject({ status: code, text });
  });

  it("answers 404 for a cluster that is not defined", async () => {
    expect(await cc.get("/clusters/ghost/status")).toMatchObject({ status: 404, text: 'cluster "ghost" not found\n' });
  });
});
