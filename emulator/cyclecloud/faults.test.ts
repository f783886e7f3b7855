import { describe, expect, it } from "vitest";
import { startTestPlane, type TestPlane } from "../testing";
import { FAILED_TO_START_MESSAGE } from "./add-nodes";
import { PREEMPTED_MESSAGE } from "./settle";
import { type CycleCloudCaller, cycleCloud, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

async function addFault(fault: Record<string, unknown>): Promise<void> {
  const response = await t.http("POST", "/_local/faults", { api: "cyclecloud", ...fault });
  expect(response.status).toBe(200);
}

async function record(name: string): Promise<Record<string, unknown>> {
  const nodes = ((await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] }).nodes;
  return nodes.find((n) => n.Name === name)!;
}

async function totalCoreHours(): Promise<number> {
  return ((await cc.get("/clusters/demo/usage?granularity=total")).body as { usage: { total: { hours: number } }[] }).usage[0].total.hours;
}

describe("fail-node", () => {
  it("fails the next node to start when Acquiring ends, records a capacity failure and bills nothing", async () => {
    await addFault({ action: "fail-node", message: "SkuNotAvailable" });
    await cc.create("execute", 2);
    t.clock.advance(1999);
    expect(await cc.states()).toEqual({ "execute-1": "Acquiring", "execute-2": "Acquiring" });
    t.clock.advance(1);
    expect(await cc.states()).toEqual({ "execute-1": "Failed", "execute-2": "Preparing" });
    expect(await record("execute-1")).toMatchObject({ State: "Failed", Status: "Failed", TargetState: "Started", StatusMessage: "SkuNotAvailable" });
    t.clock.advance(3000);
    const bucket = ((await cc.get("/clusters/demo/status")).body as { nodearrays: { buckets: Record<string, unknown>[] }[] }).nodearrays[0].buckets[0];
    expect(bucket).toMatchObject({ lastCapacityFailure: 3, activeCount: 1 });
    expect(await totalCoreHours()).toBe(Math.round(((2 * 3000) / 3_600_000) * 1e6) / 1e6);
  });

  it.each([
    ["the node it names as target", { target: "execute-2" }, { "execute-1": "Preparing", "execute-2": "Failed" }],
    ["nodes of the operation it names", { operation: "CreateNodes", count: 2 }, { "execute-1": "Failed", "execute-2": "Failed" }],
    ["no node of another operation", { operation: "StartNodes" }, { "execute-1": "Preparing", "execute-2": "Preparing" }],
  ])("hits %s", async (_label, fault, states) => {
    await addFault({ action: "fail-node", ...fault });
    await cc.create("execute", 2);
    t.clock.advance(2000);
    expect(await cc.states()).toEqual(states);
  });

  it("uses a default message, and a failed node can be started again", async () => {
    await addFault({ action: "fail-node" });
    await cc.create("gpu", 1);
    t.clock.advance(2000);
    expect((await record("gpu-1")).StatusMessage).toBe(FAILED_TO_START_MESSAGE);
    await cc.post("/clusters/demo/nodes/start", { names: ["gpu-1"] });
    t.clock.advance(5000);
    expect(await record("gpu-1")).toMatchObject({ State: "Ready", Status: "Ready" });
    expect((await record("gpu-1")).StatusMessage).toBeUndefined();
  });

  it('"fail-operation" fails every node the call starts, with its message', async () => {
    await addFault({ operation: "ScaleNodearray", action: "fail-operation", message: "quota exceeded upstream" });
    await cc.get("/clusters/demo/nodes");
    await cc.post("/clusters/demo/scale/execute?totalNodeCount=2");
    t.clock.advance(2000);
    expect(await cc.states()).toEqual({ "execute-1": "Failed", "execute-2": "Failed" });
    expect((await record("execute-2")).StatusMessage).toBe("quota exceeded upstream");
  });
});

describe("preempt-node", () => {
  it("evicts the node delayMs after it is Ready: it shows Failed and stops being billed", async () => {
    await addFault({ action: "preempt-node", delayMs: 1000 });
    await cc.create("execute", 1);
    t.clock.advance(5999);
    expect(await cc.states()).toEqual({ "execute-1": "Ready" });
    t.clock.advance(1);
    expect(await record("execute-1")).toMatchObject({ State: "Failed", Status: "Failed", StatusMessage: PREEMPTED_MESSAGE });
    t.clock.advance(3_600_000);
    expect(await totalCoreHours()).toBe(Math.round(((2 * 4000) / 3_600_000) * 1e6) / 1e6);
  });

  it("evicts 10 s after Ready by default, scaled by the time scale", async () => {
    await t.close();
    t = await startTestPlane({ timeScale: 0.1 });
    cc = cycleCloud(t);
    await addFault({ action: "preempt-node" });
    await cc.create("execute", 1);
    t.clock.advance(1499);
    expect(await cc.states()).toEqual({ "execute-1": "Ready" });
    t.clock.advance(1);
    expect(await cc.states()).toEqual({ "execute-1": "Failed" });
  });

  it("does not evict a node that was terminated first", async () => {
    await cc.create("execute", 1, { nodeAttributes: { Fixed: true } });
    await addFault({ action: "preempt-node", target: "execute-2", delayMs: 1000 });
    await cc.create("execute", 1, { nodeAttributes: { Fixed: true } });
    t.clock.advance(5000);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-2"] });
    t.clock.advance(60_000);
    expect(await cc.states()).toEqual({ "execute-1": "Ready", "execute-2": "Terminated" });
  });

  it("can preempt a Ready node at once through the admin API", async () => {
    await cc.create("execute", 2);
    t.clock.advance(5000);
    expect(await t.http("POST", "/_local/cyclecloud/nodes/preempt", { cluster: "demo", name: "execute-2" })).toMatchObject({
      status: 200,
      body: { name: "execute-2", state: "Failed" },
    });
    expect(await cc.states()).toEqual({ "execute-1": "Ready", "execute-2": "Failed" });
  });

  it.each([
    ["a node that is not Ready", { cluster: "demo", name: "execute-1" }, 'node "execute-1" is Acquiring; only Ready nodes can be preempted'],
    ["an unknown node", { cluster: "demo", name: "nope" }, 'node "nope" not found in cluster "demo"'],
    ["a body without a name", { cluster: "demo" }, 'invalid body: expected {"cluster": "<cluster>", "name": "<node name>"}'],
  ])("refuses to preempt %s with 400", async (_label, body, error) => {
    await cc.create("execute", 1);
    expect(await t.http("POST", "/_local/cyclecloud/nodes/preempt", body)).toMatchObject({ status: 400, body: { error } });
  });
});

describe("error faults", () => {
  it.each([
    ["UNAVAILABLE", 503],
    ["DEADLINE_EXCEEDED", 504],
    ["ALREADY_EXISTS", 409],
    ["INTERNAL", 500],
  ])("answers a %s fault with %i before any change, and audits it", async (code, status) => {
    await addFault({ operation: "CreateNodes", action: "error", code, message: "simulated" });
    expect(await cc.post("/clusters/demo/nodes/create", { sets: [{ nodearray: "execute", count: 1 }] })).toMatchObject({ status, text: "simulated\n" });
    expect(await cc.states()).toEqual({});
    expect((await t.http("GET", "/_local/audit")).body).toMatchObject({ entries: [{ api: "cyclecloud", operation: "CreateNodes", target: "demo", code }] });
  });

  it("validates fault operations against the CycleCloud operation names", async () => {
    const response = await t.http("POST", "/_local/faults", { api: "cyclecloud", operation: "CreateNode", action: "fail-node" });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain('field "operation": got "CreateNode", allowed: GetNodes, CreateNodes, DeallocateNodes');
  });
});
