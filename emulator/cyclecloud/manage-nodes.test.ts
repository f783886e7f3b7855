import { describe, expect, it } from "vitest";
import type { TestPlane } from "../testing";
import { type CycleCloudCaller, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

/** execute-1..3 (10.1.0.4-6) and gpu-1 (10.1.0.7), all Ready. */
async function readyNodes(): Promise<void> {
  await cc.create("execute", 3);
  await cc.create("gpu", 1);
  t.clock.advance(5000);
}

async function resultNames(action: string, body: unknown): Promise<string[]> {
  const response = await cc.post(`/clusters/demo/nodes/${action}`, body);
  expect(response.status).toBe(202);
  return (response.body as { nodes: { name: string }[] }).nodes.map((n) => n.name);
}

describe("node selectors (a union)", () => {
  it.each([
    ["names", { names: ["execute-1"] }, ["execute-1"]],
    ["hostnames, case-insensitively", { hostnames: ["ip-0a010006"] }, ["execute-3"]],
    ["ip_addresses", { ip_addresses: ["10.1.0.7"] }, ["gpu-1"]],
    ["a filter", { filter: 'Template === "gpu"' }, ["gpu-1"]],
    ["the documented example filter (no node is in State Started)", { filter: 'State === "Started"' }, []],
    ["names, ip_addresses and a filter together", { names: ["execute-1"], ip_addresses: ["10.1.0.5"], filter: 'Template === "gpu"' }, ["execute-1", "execute-2", "gpu-1"]],
    ["overlapping selectors, each node once", { names: ["execute-2"], hostnames: ["ip-0A010005"], filter: 'Name === "execute-2"' }, ["execute-2"]],
    ["unknown names", { names: ["nope"] }, []],
    ["empty lists", { names: [], ids: [] }, []],
  ])("selects by %s", async (_label, body, expected) => {
    await readyNodes();
    expect(await resultNames("restart", body)).toEqual(expected);
  });

  it("selects by node id", async () => {
    await readyNodes();
    const id = (await cc.nodes()).get("execute-3")!.id;
    expect(await resultNames("restart", { ids: [id] })).toEqual(["execute-3"]);
  });

  it.each([
    ["no selector", {}, "invalid NodeManagementRequest: give at least one of filter, hostnames, ids, ip_addresses, names"],
    ["an unsupported filter", { filter: "State = 1" }, 'invalid field "filter": got "State = 1": unexpected character "=" at position 6; allowed:'],
    ["names that are not a list", { names: "execute-1" }, 'invalid NodeManagementRequest: field "names": got "execute-1"'],
  ])("answers 409 to %s and changes nothing", async (_label, body, message) => {
    await readyNodes();
    const response = await cc.post("/clusters/demo/nodes/terminate", body);
    expect(response.status).toBe(409);
    expect(response.text).toContain(message);
    expect(Object.values(await cc.states())).toEqual(["Ready", "Ready", "Ready", "Ready"]);
  });
});

type Setup = "Ready" | "Acquiring" | "Deallocated";

const SETUP: Readonly<Record<Setup, () => Promise<void>>> = {
  Acquiring: async () => {
    await cc.create("execute", 1);
  },
  Ready: async () => {
    await cc.create("execute", 1);
    t.clock.advance(5000);
  },
  Deallocated: async () => {
    await SETUP.Ready();
    await cc.post("/clusters/demo/nodes/deallocate", { names: ["execute-1"] });
    t.clock.advance(2000);
  },
};

describe("management actions", () => {
  it.each<[string, Setup, string, string, string | undefined]>([
    ["terminate", "Ready", "OK", "Terminating", undefined],
    ["terminate", "Acquiring", "OK", "Terminating", undefined],
    ["terminate", "Deallocated", "OK", "Terminating", undefined],
    ["remove", "Ready", "OK", "Terminating", undefined],
    ["shutdown", "Ready", "OK", "Terminating", undefined],
    ["deallocate", "Ready", "OK", "Deallocating", "Deallocated"],
    ["deallocate", "Deallocated", "OK", "Deallocated", "Deallocated"],
    ["deallocate", "Acquiring", 'node "execute-1" is Acquiring; only Ready nodes can be deallocated', "Acquiring", "Ready"],
    ["start", "Deallocated", "OK", "Acquiring", "Ready"],
    ["start", "Ready", "OK", "Ready", "Ready"],
    ["restart", "Ready", "OK", "Restarting", "Ready"],
    ["restart", "Acquiring", 'node "execute-1" is Acquiring; only Ready nodes can be restarted', "Acquiring", "Ready"],
    ["reimage", "Ready", "OK", "Reimaging", "Ready"],
    ["reimage", "Deallocated", 'node "execute-1" is Deallocated; only Ready nodes can be reimaged', "Deallocated", "Deallocated"],
  ])("%s on a %s node: %s, then %s, finally %s", async (action, setup, result, during, after) => {
    await SETUP[setup]();
    const response = await cc.post(`/clusters/demo/nodes/${action}`, { names: ["execute-1"] });
    const entry = (response.body as { nodes: Record<string, string>[] }).nodes[0];
    expect(entry.status === "OK" ? "OK" : entry.error).toBe(result);
    expect(entry.status).toBe(result === "OK" ? "OK" : "Error");
    expect((await cc.states())["execute-1"]).toBe(during);
    t.clock.advance(5000);
    expect((await cc.states())["execute-1"]).toBe(after);
  });

  it("keeps a terminated Fixed node's record until it is removed, and can start it again", async () => {
    await cc.create("execute", 1, { nodeAttributes: { Fixed: true } });
    t.clock.advance(5000);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
    t.clock.advance(2000);
    const listed = (await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] };
    expect(listed.nodes).toMatchObject([{ Name: "execute-1", State: "Terminated", Status: "Off", TargetState: "Terminated" }]);
    expect(listed.nodes[0].PrivateIp).toBeUndefined();
    await cc.post("/clusters/demo/nodes/start", { names: ["execute-1"] });
    t.clock.advance(5000);
    expect(await cc.states()).toEqual({ "execute-1": "Ready" });
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
    t.clock.advance(2000);
    await cc.post("/clusters/demo/nodes/remove", { names: ["execute-1"] });
    expect((await cc.get("/clusters/demo/nodes")).body).toEqual({ nodes: [] });
  });

  it("removes a terminated node's record when Terminating ends", async () => {
    await readyNodes();
    await cc.post("/clusters/demo/nodes/terminate", { filter: 'Template === "execute"' });
    t.clock.advance(1999);
    expect(await cc.states()).toEqual({ "execute-1": "Terminating", "execute-2": "Terminating", "execute-3": "Terminating", "gpu-1": "Ready" });
    t.clock.advance(1);
    expect(await cc.states()).toEqual({ "gpu-1": "Ready" });
  });
});

describe("what a parked node keeps", () => {
  /** The record attributes of the VM a node holds. */
  async function vm(name: string): Promise<Record<string, unknown>> {
    const listed = (await cc.get("/clusters/demo/nodes")).body as { nodes: Record<string, unknown>[] };
    const { NodeId, State, PrivateIp, Hostname, InstanceId } = listed.nodes.find((n) => n.Name === name)!;
    return { NodeId, State, PrivateIp, Hostname, InstanceId };
  }

  it("keeps a deallocated node's VM and address, and starts it on them again", async () => {
    await cc.create("execute", 1);
    t.clock.advance(5000);
    const before = await vm("execute-1");
    await cc.post("/clusters/demo/nodes/deallocate", { names: ["execute-1"] });
    t.clock.advance(2000);
    expect(await vm("execute-1")).toEqual({ ...before, State: "Deallocated" });
    await cc.post("/clusters/demo/nodes/start", { names: ["execute-1"] });
    t.clock.advance(5000);
    expect(await vm("execute-1")).toEqual(before);
  });

  it("starts a terminated Fixed node on a new VM: the same node, a new private IP, hostname and instance id", async () => {
    await cc.create("execute", 2, { nodeAttributes: { Fixed: true } });
    t.clock.advance(5000);
    const before = await vm("execute-1");
    expect(before.PrivateIp).toBe("10.1.0.4");
    await cc.post("/clusters/demo/nodes/shutdown", { names: ["execute-1"] });
    t.clock.advance(2000);
    expect(await vm("execute-1")).toEqual({ NodeId: before.NodeId, State: "Terminated", PrivateIp: undefined, Hostname: undefined, InstanceId: undefined });
    await cc.post("/clusters/demo/nodes/start", { names: ["execute-1"] });
    t.clock.advance(5000);
    const after = await vm("execute-1");
    expect(after).toMatchObject({ NodeId: before.NodeId, State: "Ready", PrivateIp: "10.1.0.6", Hostname: "ip-0A010006" });
    expect(after.InstanceId).not.toBe(before.InstanceId);
    // The next node created takes the next address, not the one the restarted node took.
    await cc.create("execute", 1);
    t.clock.advance(5000);
    expect((await vm("execute-3")).PrivateIp).toBe("10.1.0.7");
  });

  it("records the three operations in the audit under the platform's names", async () => {
    await cc.create("execute", 1, { nodeAttributes: { Fixed: true } });
    t.clock.advance(5000);
    for (const action of ["deallocate", "start", "shutdown", "start"]) {
      expect((await cc.post(`/clusters/demo/nodes/${action}`, { names: ["execute-1"] })).status).toBe(202);
      t.clock.advance(5000);
    }
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { operation: string; code: string }[] };
    expect(entries.filter((e) => e.operation.endsWith("Nodes")).map((e) => `${e.operation}:${e.code}`)).toEqual([
      "CreateNodes:OK",
      "DeallocateNodes:OK",
      "StartNodes:OK",
      "ShutdownNodes:OK",
      "StartNodes:OK",
    ]);
  });
});

describe("shutdown follows each node's ShutdownPolicy", () => {
  it("deallocates nodes whose policy is Deallocate and terminates the others", async () => {
    await cc.create("execute", 1);
    await cc.create("execute", 1, { nodeAttributes: { ShutdownPolicy: "Deallocate" } });
    t.clock.advance(5000);
    await cc.post("/clusters/demo/nodes/shutdown", { filter: 'Template === "execute"' });
    expect(await cc.states()).toEqual({ "execute-1": "Terminating", "execute-2": "Deallocating" });
    t.clock.advance(2000);
    expect(await cc.states()).toEqual({ "execute-2": "Deallocated" });
  });

  it("takes the policy from the nodearray when the node sets none, and terminates a Deallocate node that is not Ready", async () => {
    await t.http("POST", "/_local/cyclecloud/clusters", {
      name: "demo",
      nodearrays: [{ name: "execute", machineType: "Standard_F2s_v2", quota: 5, shutdownPolicy: "Deallocate" }],
    });
    await cc.create("execute", 1);
    t.clock.advance(5000);
    await cc.create("execute", 1);
    await cc.post("/clusters/demo/nodes/shutdown", { names: ["execute-1", "execute-2"] });
    expect(await cc.states()).toEqual({ "execute-1": "Deallocating", "execute-2": "Terminating" });
  });
});
