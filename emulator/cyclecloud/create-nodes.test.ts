import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { basicAuth, type CycleCloudCaller, cycleCloud } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let cc: CycleCloudCaller;
afterEach(async () => {
  await t?.close();
});

async function start(opts: Parameters<typeof startTestPlane>[0] = {}): Promise<void> {
  t = await startTestPlane(opts);
  cc = cycleCloud(t);
}

describe("POST /clusters/{cluster}/nodes/create", () => {
  it("answers 202 with the operation id in the body and an absolute Location to the operation", async () => {
    await start();
    const response = await fetch(`${t.plane.url}/clusters/demo/nodes/create`, {
      method: "POST",
      headers: { ...basicAuth(), "Content-Type": "application/json" },
      body: JSON.stringify({ sets: [{ nodearray: "execute", count: 2 }] }),
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { operationId: string; sets: unknown[] };
    expect(body.operationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.sets).toEqual([{ added: 2 }]);
    expect(response.headers.get("location")).toBe(`${t.plane.url}/operations/${body.operationId}`);
    const operation = await cc.get(`/operations/${body.operationId}`);
    expect(operation).toMatchObject({ status: 200, body: { action: "create", startTime: "2023-11-14T22:13:20Z" } });
  });

  it.each([
    [0, "Acquiring", "Acquiring", false],
    [1999, "Acquiring", "Acquiring", false],
    [2000, "Preparing", "Preparing", true],
    [4999, "Preparing", "Preparing", true],
    [5000, "Ready", "Ready", true],
  ])("after %i ms a new node is %s (Status %s), with a VM: %s", async (elapsedMs, state, status, hasVm) => {
    await start();
    await cc.create("execute", 1);
    t.clock.advance(elapsedMs);
    const node = ((await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] }).nodes[0];
    expect(node).toMatchObject({ Name: "execute-1", Template: "execute", MachineType: "Standard_F2s_v2", State: state, Status: status, TargetState: "Started" });
    expect(node.PrivateIp !== undefined).toBe(hasVm);
    expect(node.Hostname !== undefined).toBe(hasVm);
  });

  it("multiplies the durations by the time scale", async () => {
    await start({ timeScale: 0.5 });
    await cc.create("execute", 1);
    t.clock.advance(2499);
    expect(await cc.states()).toEqual({ "execute-1": "Preparing" });
    t.clock.advance(1);
    expect(await cc.states()).toEqual({ "execute-1": "Ready" });
  });

  it("names nodes <nodearray>-<n> from 1, skipping names in use, or by nameFormat and nameOffset", async () => {
    await start();
    await cc.create("execute", 2);
    await cc.create("execute", 1);
    await cc.create("gpu", 1, { nameFormat: "train-%d-x", nameOffset: 7 });
    const nodes = (await cc.get("/clusters/demo/nodes")).body as { nodes: { Name: string; PrivateIp?: string }[] };
    expect(nodes.nodes.map((n) => n.Name)).toEqual(["execute-1", "execute-2", "execute-3", "train-7-x"]);
  });

  it("gives each node a private IP, a hostname derived from it, and the request's nodeAttributes", async () => {
    await start({ timeScale: 0 });
    await cc.create("execute", 2, { nodeAttributes: { KeepAlive: true, Configuration: { role: "worker" }, State: "Ignored" } });
    const nodes = ((await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] }).nodes;
    expect(nodes.map((n) => [n.PrivateIp, n.Hostname, n.KeepAlive, n.Configuration, n.State])).toEqual([
      ["10.1.0.4", "ip-0A010004", true, { role: "worker" }, "Ready"],
      ["10.1.0.5", "ip-0A010005", true, { role: "worker" }, "Ready"],
    ]);
    expect(nodes[0]).toMatchObject({ ShutdownPolicy: "Terminate", Fixed: false, Region: "westeurope", Interruptible: false });
  });

  it("adds fewer nodes than asked when the bucket's quota binds, saying why in the set's message", async () => {
    await start();
    const response = await cc.post("/clusters/demo/nodes/create", {
      sets: [
        { nodearray: "gpu", count: 3 },
        { nodearray: "execute", count: 1 },
        { nodearray: "gpu", count: 1 },
      ],
    });
    expect(response.status).toBe(202);
    expect((response.body as { sets: unknown[] }).sets).toEqual([
      { added: 2, message: 'only 2 of 3 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 0 are in use' },
      { added: 1 },
      { added: 0, message: 'only 0 of 1 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 2 are in use' },
    ]);
    expect(Object.keys(await cc.states())).toEqual(["gpu-1", "gpu-2", "execute-1"]);
  });

  it("frees quota once nodes are terminated", async () => {
    await start({ timeScale: 0 });
    await cc.create("gpu", 2);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["gpu-1"] });
    const response = await cc.post("/clusters/demo/nodes/create", { sets: [{ nodearray: "gpu", count: 2 }] });
    expect((response.body as { sets: unknown[] }).sets).toEqual([
      { added: 1, message: 'only 1 of 2 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 1 are in use' },
    ]);
  });

  it("limits a placement group to the nodearray's maxPlacementGroupSize", async () => {
    await start();
    await t.http("POST", "/_local/cyclecloud/clusters", {
      name: "demo",
      nodearrays: [{ name: "mpi", machineType: "Standard_HB120rs_v3", quota: 10, maxPlacementGroupSize: 3 }],
    });
    const response = await cc.post("/clusters/demo/nodes/create", { sets: [{ nodearray: "mpi", count: 4, placementGroupId: "pg1" }] });
    expect((response.body as { sets: unknown[] }).sets).toEqual([
      { added: 3, message: 'only 3 of 4 nodes were added: placement group "pg1" holds at most 3 nodes and 0 are in it' },
    ]);
    const nodes = ((await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] }).nodes;
    expect(nodes.map((n) => n.PlacementGroupId)).toEqual(["pg1", "pg1", "pg1"]);
  });

  it.each([
    ["no sets", {}, 'invalid NodeCreationRequest: field "sets": got nothing'],
    ["empty sets", { sets: [] }, 'field "sets": got []'],
    ["a negative count", { sets: [{ nodearray: "execute", count: -1 }] }, 'field "sets.0.count": got -1'],
    ["a fractional count", { sets: [{ nodearray: "execute", count: 1.5 }] }, 'field "sets.0.count": got 1.5'],
    ["an unknown nodearray", { sets: [{ nodearray: "nope", count: 1 }] }, 'invalid field "sets.0.nodearray": got "nope", allowed in cluster "demo": execute, gpu'],
    [
      "a machine type outside the nodearray",
      { sets: [{ nodearray: "gpu", count: 1, definition: { machineType: "Standard_F2s_v2" } }] },
      'invalid field "sets.0.definition.machineType": got "Standard_F2s_v2", allowed in nodearray "gpu": Standard_NC6',
    ],
    ["a nameFormat without %d", { sets: [{ nodearray: "execute", count: 1, nameFormat: "fixed" }] }, 'field "sets.0.nameFormat": got "fixed", expected exactly one "%d"'],
    ["a body that is not JSON", "{not json", "invalid body: expected a JSON object"],
  ])("answers 409 to %s and creates nothing", async (_label, body, message) => {
    await start();
    const response = await cc.post("/clusters/demo/nodes/create", body);
    expect(response.status).toBe(409);
    expect(response.text).toContain(message);
    expect(await cc.states()).toEqual({});
  });

  it("answers 404 for a cluster that is not defined", async () => {
    await start();
    const response = await cc.post("/clusters/ghost/nodes/create", { sets: [{ nodearray: "execute", count: 1 }] });
    expect(response).toMatchObject({ status: 404, text: 'cluster "ghost" not found\n' });
  });

  it("answers 409 to a reused requestId and ignores the repeated request", async () => {
    await start();
    const body = { requestId: "req-1", sets: [{ nodearray: "execute", count: 1 }] };
    expect((await cc.post("/clusters/demo/nodes/create", body)).status).toBe(202);
    const again = await cc.post("/clusters/demo/nodes/create", body);
    expect(again).toMatchObject({ status: 409, text: 'requestId "req-1" was already used; the request was ignored\n' });
    const terminate = await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"], requestId: "req-1" });
    expect(terminate.status).toBe(409);
    expect(await cc.states()).toEqual({ "execute-1": "Acquiring" });
  });
});

describe("POST /clusters/{cluster}/scale/{nodearray}", () => {
  it.each([
    ["totalNodeCount=3 with none", 0, "totalNodeCount=3", 3],
    ["totalNodeCount=3 with 2", 2, "totalNodeCount=3", 1],
    ["totalNodeCount=1 with 2 (never removes)", 2, "totalNodeCount=1", 0],
    ["totalCoreCount=6 with none (2 cores each)", 0, "totalCoreCount=6", 3],
    ["totalCoreCount=5 with none (rounds up)", 0, "totalCoreCount=5", 3],
    ["totalCoreCount=8 with 2", 2, "totalCoreCount=8", 2],
  ])("adds only what is missing: %s", async (_label, existing, query, added) => {
    await start();
    if (existing > 0) await cc.create("execute", existing);
    const response = await cc.post(`/clusters/demo/scale/execute?${query}`);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ sets: [{ added }] });
    expect(Object.keys(await cc.states())).toHaveLength(existing + added);
  });

  it("does not count nodes that are being terminated", async () => {
    await start();
    await cc.create("execute", 2);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
    const response = await cc.post("/clusters/demo/scale/execute?totalNodeCount=2");
    expect(response.body).toMatchObject({ sets: [{ added: 1 }] });
    expect(await cc.states()).toEqual({ "execute-1": "Terminating", "execute-2": "Acquiring", "execute-3": "Acquiring" });
  });

  it("stops at the quota with a message", async () => {
    await start();
    const response = await cc.post("/clusters/demo/scale/gpu?totalNodeCount=5");
    expect(response.body).toMatchObject({
      sets: [{ added: 2, message: 'only 2 of 5 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 0 are in use' }],
    });
  });

  it.each([
    ["neither total", "", "give exactly one of totalCoreCount and totalNodeCount, got neither"],
    ["both totals", "?totalNodeCount=1&totalCoreCount=2", "got both"],
    ["a negative total", "?totalNodeCount=-1", 'invalid query parameter "totalNodeCount": got "-1", expected a non-negative integer'],
    ["a non-integer total", "?totalCoreCount=2.5", 'invalid query parameter "totalCoreCount": got "2.5"'],
  ])("answers 409 to %s", async (_label, query, message) => {
    await start();
    const response = await cc.post(`/clusters/demo/scale/execute${query}`);
    expect(response.status).toBe(409);
    expect(response.text).toContain(message);
  });

  it("answers 409 for an unknown nodearray", async () => {
    await start();
    const response = await cc.post("/clusters/demo/scale/nope?totalNodeCount=1");
    expect(response).toMatchObject({ status: 409, text: 'invalid nodearray: got "nope", allowed in cluster "demo": execute, gpu\n' });
  });
});
