import { describe, expect, it } from "vitest";
import type { TestPlane } from "../testing";
import { type CycleCloudCaller, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

const execute = { name: "execute", machineType: "Standard_F2s_v2", quota: 20 };
const DEFAULTS = { region: "westeurope", spot: false, shutdownPolicy: "Terminate", fixed: false, maxPlacementGroupSize: 100, attributes: {} };

describe("admin API: clusters", () => {
  it("starts with the demo cluster and shows what each nodearray has in use", async () => {
    await cc.create("gpu", 1);
    expect((await t.http("GET", "/_local/cyclecloud/clusters")).body).toEqual({
      clusters: [
        {
          name: "demo",
          maxCount: 22,
          maxCoreCount: 52,
          nodearrays: [
            { name: "execute", buckets: [{ machineType: "Standard_F2s_v2", quota: 20 }], maxCount: 20, maxCoreCount: 40, ...DEFAULTS, activeCount: 0, activeCoreCount: 0 },
            { name: "gpu", buckets: [{ machineType: "Standard_NC6", quota: 2 }], maxCount: 2, maxCoreCount: 12, ...DEFAULTS, activeCount: 1, activeCoreCount: 6 },
          ],
        },
      ],
    });
  });

  it("redefines a cluster in place: its nodes stay and the new limits apply", async () => {
    await cc.create("execute", 2);
    const response = await t.http("POST", "/_local/cyclecloud/clusters", { name: "demo", nodearrays: [{ ...execute, quota: 3, attributes: { Configuration: { x: 1 } } }] });
    expect(response).toMatchObject({ status: 200, body: { cluster: { name: "demo", maxCount: 3 } } });
    expect(Object.keys(await cc.states())).toEqual(["execute-1", "execute-2"]);
    expect((await cc.post("/clusters/demo/nodes/create", { sets: [{ nodearray: "execute", count: 2 }] })).body).toMatchObject({ sets: [{ added: 1 }] });
    expect((await cc.nodes()).get("execute-3")!.attributes).toMatchObject({ Configuration: { x: 1 } });
  });

  it.each([
    ["no nodearrays", { name: "c", nodearrays: [] }, 'field "nodearrays": Too small'],
    ["a bad cluster name", { name: "bad name", nodearrays: [execute] }, 'field "name": expected letters, digits'],
    ["an unknown machine type", { name: "c", nodearrays: [{ ...execute, machineType: "Standard_X1" }] }, 'field "nodearrays.0.machineType": got "Standard_X1", allowed: Standard_F2s_v2, Standard_F4s_v2'],
    ["both machineType and buckets", { name: "c", nodearrays: [{ ...execute, buckets: [{ machineType: "Standard_F2s_v2", quota: 1 }] }] }, "give either `machineType` and `quota`, or `buckets`, not both"],
    ["neither machineType nor buckets", { name: "c", nodearrays: [{ name: "a" }] }, "give either `machineType` and `quota`, or `buckets`"],
    ["a negative quota", { name: "c", nodearrays: [{ ...execute, quota: -1 }] }, 'field "nodearrays.0.quota": Too small'],
    ["a bad shutdown policy", { name: "c", nodearrays: [{ ...execute, shutdownPolicy: "Stop" }] }, 'field "nodearrays.0.shutdownPolicy"'],
    ["duplicate nodearrays", { name: "c", nodearrays: [execute, execute] }, 'field "nodearrays": nodearray names must be unique'],
    ["an unknown field", { name: "c", nodearrays: [execute], color: "red" }, 'body: Unrecognized key: "color"'],
  ])("rejects a definition with %s (400, nothing defined)", async (_label, body, message) => {
    const response = await t.http("POST", "/_local/cyclecloud/clusters", body);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(message);
    const clusters = (await t.http("GET", "/_local/cyclecloud/clusters")).body as { clusters: { name: string }[] };
    expect(clusters.clusters.map((c) => c.name)).toEqual(["demo"]);
  });

  it.each([
    ["without a name", "", 'invalid query parameter "name": required, the cluster to delete'],
    ["of an unknown cluster", "?name=ghost", 'cluster "ghost" is not defined'],
  ])("refuses a delete %s", async (_label, query, error) => {
    expect(await t.http("DELETE", `/_local/cyclecloud/clusters${query}`)).toMatchObject({ status: 400, body: { error } });
  });

  it("deletes a cluster with its nodes, ending their billing", async () => {
    await cc.create("execute", 1);
    t.clock.advance(3_600_000 + 2000);
    expect((await t.http("DELETE", "/_local/cyclecloud/clusters?name=demo")).status).toBe(200);
    expect((await t.http("GET", "/_local/cyclecloud/nodes")).body).toEqual({ nodes: [] });
    expect((await cc.get("/clusters/demo/nodes")).status).toBe(404);
    await t.http("POST", "/_local/cyclecloud/clusters", { name: "demo", nodearrays: [execute] });
    t.clock.advance(3_600_000);
    const usage = (await cc.get("/clusters/demo/usage?granularity=total")).body;
    expect(usage).toMatchObject({ usage: [{ total: { hours: 2 } }] });
  });
});

describe("admin API: nodes and operations", () => {
  it("shows each node's state and the transition ahead of it", async () => {
    await t.http("POST", "/_local/faults", { action: "preempt-node", delayMs: 1000 });
    await cc.create("gpu", 1);
    const node = (await cc.nodes()).get("gpu-1")!;
    expect(node).toMatchObject({
      cluster: "demo",
      nodearray: "gpu",
      machineType: "Standard_NC6",
      state: "Acquiring",
      status: "Acquiring",
      targetState: "Started",
      privateIp: "10.1.0.4",
      transition: { kind: "create", endsAt: "2023-11-14T22:13:25.000Z" },
      preemptAt: "2023-11-14T22:13:26.000Z",
    });
  });

  it("lists operations with their id, request id and the nodes they changed", async () => {
    const created = await cc.post("/clusters/demo/nodes/create", { requestId: "r1", sets: [{ nodearray: "execute", count: 2 }] });
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-2"] });
    const view = (await t.http("GET", "/_local/cyclecloud/operations")).body as { operations: Record<string, unknown>[] };
    expect(view.operations).toMatchObject([
      { id: (created.body as { operationId: string }).operationId, cluster: "demo", requestId: "r1", action: "create", nodes: ["execute-1", "execute-2"] },
      { cluster: "demo", requestId: null, action: "terminate", nodes: ["execute-2"] },
    ]);
  });
});
