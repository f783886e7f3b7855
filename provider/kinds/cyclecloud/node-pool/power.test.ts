import { describe, expect, it } from "vitest";
import { planUpdate } from "../../../core/plan/operation";
import { UNKNOWN } from "../../../core/validation";
import { testHandler } from "../../testing";
import { cyclecloudNodePool } from "./kind";
import { nodePoolPlanner } from "./plan";
import { observedPower, offRefusal, parkedOf, powerOf, recordedPower } from "./power";

const handler = testHandler(cyclecloudNodePool);

type Props = Record<string, unknown>;

const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "workers", clusterName: "demo", nodearray: "execute", count: 2 };
const OUTPUTS: Props = { nodeIds: ["a", "b"], nodeNames: ["execute-1", "execute-2"], readyCount: 2, lastOperationId: "op", requestSeq: 1, coresPerNode: 2 };

async function reasons(olds: Props, patch: Props): Promise<{ property: string; reason: string }[]> {
  const { failures } = await handler.check(olds, { ...raw, ...patch });
  return failures ?? [];
}

describe("powerState validation", () => {
  it.each([["running"], ["deallocated"], ["off"]])("accepts %s", async (powerState) => {
    expect(await reasons({}, { powerState, nodeAttributes: { Fixed: true } })).toEqual([]);
  });

  it.each<[string, Props, string]>([
    ["an unknown state", { powerState: "stopped" }, 'powerState must be one of "running", "deallocated" or "off", got "stopped"'],
    ["a state in another case", { powerState: "Deallocated" }, 'powerState must be one of "running", "deallocated" or "off", got "Deallocated"'],
    ["a boolean", { powerState: false }, 'powerState must be one of "running", "deallocated" or "off", got false'],
    [
      "off with nodes that deallocate on shutdown",
      { powerState: "off", nodeAttributes: { ShutdownPolicy: "Deallocate" } },
      'powerState "off" cannot be used here: nodeAttributes.ShutdownPolicy is "Deallocate", so nodes/shutdown would deallocate them: use "deallocated"',
    ],
    [
      "off with nodes that are not Fixed",
      { powerState: "off", nodeAttributes: { Fixed: false } },
      `powerState "off" cannot be used here: nodeAttributes.Fixed is false, so CycleCloud would remove the terminated nodes' records: set Fixed to true or use "deallocated"`,
    ],
  ])("rejects %s, naming the field, the value and what is allowed", async (_, patch, reason) => {
    expect((await reasons({}, patch)).map((f) => f.reason)).toEqual([reason]);
  });

  it.each<[string, Props, Props, string, string]>([
    [
      "off to deallocated",
      { powerState: "off" },
      { powerState: "deallocated" },
      "powerState",
      'powerState cannot go from "off" to "deallocated": the nodes were terminated and have no VM to deallocate; allowed from "off": "running" (nodes/start), then "deallocated" in a later update',
    ],
    [
      "a new count for a pool that stays deallocated",
      { powerState: "deallocated" },
      { powerState: "deallocated", count: 4 },
      "count",
      'count cannot change from 2 to 4 while the pool stays parked (powerState "deallocated"): set powerState "running" in the same update (the nodes start, then the pool is resized) and park it again in a later one',
    ],
    [
      "a new coreCount for a pool going from deallocated to off",
      { powerState: "deallocated", count: undefined, coreCount: 4 },
      { powerState: "off", count: undefined, coreCount: 2 },
      "coreCount",
      'coreCount cannot change from 4 to 2 while the pool stays parked (powerState "off"): set powerState "running" in the same update (the nodes start, then the pool is resized) and park it again in a later one',
    ],
  ])("refuses %s before any call", async (_, oldPatch, newPatch, property, reason) => {
    expect(await reasons({ ...raw, ...oldPatch }, newPatch)).toEqual([{ property, reason }]);
  });

  it.each<[string, Props, Props]>([
    ["deallocated to off", { powerState: "deallocated" }, { powerState: "off" }],
    ["a new count while parking", {}, { powerState: "deallocated", count: 4 }],
    ["a new count while starting", { powerState: "off" }, { powerState: "running", count: 1 }],
    ["an unknown power state", { powerState: "off" }, { powerState: UNKNOWN }],
    ["a new program count while parked, when CycleCloud owns the size", { powerState: "deallocated", capacityOwner: "platform" }, { powerState: "deallocated", count: 4, capacityOwner: "platform" }],
  ])("allows %s", async (_, oldPatch, newPatch) => {
    expect(await reasons({ ...raw, ...oldPatch }, newPatch)).toEqual([]);
  });
});

describe("planning a powerState change", () => {
  const plan = (oldPatch: Props, newPatch: Props) =>
    nodePoolPlanner.update({ ...raw, ...OUTPUTS, ...oldPatch }, { ...raw, ...newPatch }, { changes: true, replaces: [], updates: [], records: [], stables: [] }, "demo/execute/x").map((o) => `${o.call} ${o.target}: ${o.summary}`);

  it.each<[string, Props, Props, string[]]>([
    ["deallocates the running pool", {}, { powerState: "deallocated" }, ["DeallocateNodes demo: deallocates (VMs stopped, disks and private IPs kept) the pool's 2 node(s) (powerState running -> deallocated)"]],
    ["shuts the running pool down", {}, { powerState: "off" }, ["ShutdownNodes demo: shuts down (VMs and OS disks deleted, node records kept) the pool's 2 node(s) (powerState running -> off)"]],
    ["starts a deallocated pool when powerState is removed", { powerState: "deallocated" }, {}, ["StartNodes demo: starts the pool's 2 node(s) (powerState deallocated -> running)"]],
    ["shuts a deallocated pool down", { powerState: "deallocated" }, { powerState: "off" }, ["ShutdownNodes demo: shuts down (VMs and OS disks deleted, node records kept) the pool's 2 node(s) (powerState deallocated -> off)"]],
    [
      "resizes first, then parks, when both change",
      {},
      { powerState: "deallocated", count: 3 },
      ["CreateNodes demo: adds 1 node(s) to nodearray execute (2 -> 3)", "DeallocateNodes demo: deallocates (VMs stopped, disks and private IPs kept) the pool's 3 node(s) (powerState running -> deallocated)"],
    ],
    [
      "starts first, then resizes, when both change",
      { powerState: "off" },
      { count: 1 },
      ["StartNodes demo: starts the pool's 2 node(s) (powerState off -> running)", "RemoveNodes demo: removes 1 node(s): execute-2 (2 -> 1)"],
    ],
    ["plans nothing for an explicit running against an absent one", {}, { powerState: "running" }, []],
  ])("%s", (_, oldPatch, newPatch, expected) => {
    expect(plan(oldPatch, newPatch)).toEqual(expected);
  });

  it("flags parking as removing capacity and starting as not", () => {
    const [park] = nodePoolPlanner.update({ ...raw, ...OUTPUTS }, { ...raw, powerState: "off" }, { changes: true, replaces: [], updates: [], records: [], stables: [] }, "x");
    const [start] = nodePoolPlanner.update({ ...raw, ...OUTPUTS, powerState: "off" }, raw, { changes: true, replaces: [], updates: [], records: [], stables: [] }, "x");
    expect([park.disruptions, start.disruptions]).toEqual([["capacity-removed"], undefined]);
  });

  it("creates the nodes, then parks them, for a pool created parked", () => {
    expect(nodePoolPlanner.create({ ...raw, powerState: "deallocated" }).map((o) => o.call)).toEqual(["CreateNodes", "DeallocateNodes"]);
    expect(nodePoolPlanner.create({ ...raw, count: undefined, coreCount: 4, powerState: "off" }).map((o) => o.call)).toEqual(["CreateNodes", "ShutdownNodes"]);
  });

  it("diffs a powerState change as in place", async () => {
    const { inputs: olds } = await handler.check({}, raw);
    const { inputs: news } = await handler.check(olds, { ...raw, powerState: "deallocated" });
    expect(await handler.diff("demo/execute/x", { ...olds, ...OUTPUTS }, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("the power state nodes show", () => {
  it.each<[string, Props, string | undefined]>([
    ["a Deallocated node", { State: "Deallocated" }, "deallocated"],
    ["a Deallocating node", { State: "Deallocating" }, "deallocated"],
    ["a Terminated Fixed node", { State: "Terminated", Fixed: true }, "off"],
    ["a Terminated node that is not Fixed (its record goes)", { State: "Terminated", Fixed: false }, undefined],
    ["a Ready node", { State: "Ready" }, undefined],
    ["a Failed node", { State: "Failed" }, undefined],
  ])("%s is %s", (_, record, parked) => {
    expect(parkedOf(record as { State: string })).toBe(parked);
  });

  const D = { parked: "deallocated" as const };
  const O = { parked: "off" as const };
  const R = {};
  const F = { failed: true };
  it.each<[string, object[], "running" | "deallocated" | "off", string]>([
    ["every node running", [R, R], "deallocated", "running"],
    ["every node deallocated", [D, D], "running", "deallocated"],
    ["every node off", [O, O], "running", "off"],
    ["a failed node beside deallocated ones", [D, F], "deallocated", "deallocated"],
    ["a parked pool with a node started outside Pulumi", [D, R], "deallocated", "running"],
    ["a running pool with a node deallocated outside Pulumi", [R, D], "running", "deallocated"],
    ["a running pool with a node shut down outside Pulumi", [R, O], "running", "off"],
    ["a pool with no node", [], "deallocated", "running"],
  ])("%s (expected %s) shows as %s", (_, nodes, expected, shown) => {
    expect(observedPower(nodes, expected)).toBe(shown);
  });

  it.each<[string, "running" | "deallocated" | "off", unknown, string | undefined]>([
    ["the program's absent value when running", "running", undefined, undefined],
    ["the program's explicit running", "running", "running", "running"],
    ["the observed parked state over the program's running", "deallocated", undefined, "deallocated"],
    ["running as absent over a parked value", "running", "off", undefined],
  ])("records %s", (_, observed, given, recorded) => {
    expect(recordedPower(observed, given)).toBe(recorded);
  });

  it("reads an absent or unknown powerState as running", () => {
    expect([powerOf(undefined), powerOf(UNKNOWN), powerOf("off")]).toEqual(["running", "running", "off"]);
  });

  it.each<[string, Props[], string | undefined]>([
    ["Fixed nodes terminated on shutdown", [{ Name: "a", Fixed: true, ShutdownPolicy: "Terminate" }], undefined],
    ["Fixed nodes of no ShutdownPolicy (Terminate is the default)", [{ Name: "a", Fixed: true }], undefined],
    [
      "nodes that deallocate on shutdown",
      [{ Name: "a", Fixed: true, ShutdownPolicy: "Deallocate" }],
      'node(s) a have ShutdownPolicy "Deallocate", so nodes/shutdown would deallocate them: use powerState "deallocated"',
    ],
    [
      "nodes that are not Fixed",
      [{ Name: "a", Fixed: true }, { Name: "b" }],
      'node(s) b are not Fixed, so CycleCloud would remove them once terminated: use powerState "deallocated", or create the pool with nodeAttributes { Fixed: true } (or a nodearray that sets it)',
    ],
  ])("off refuses %s: %s", (_, records, refusal) => {
    expect(offRefusal(records.map((r) => ({ NodeId: String(r.Name), Name: String(r.Name), ...r })))).toBe(refusal);
  });
});

describe("a pool whose size CycleCloud owns (capacityOwner platform)", () => {
  // The state after a refresh: the autoscaler removed one of the program's 3 nodes.
  const state: Props = { ...raw, ...OUTPUTS, count: 2, capacityOwner: "platform" };
  const plan = (news: Props) => planUpdate(cyclecloudNodePool.policies, cyclecloudNodePool.planner, state, { ...raw, ...news }, "demo/execute/x");

  it("plans nothing for a program count other than the live one", () => {
    expect(plan({ count: 3, capacityOwner: "platform" })).toMatchObject({ diff: { changes: false }, operations: [] });
  });

  it("parks the pool at its live size, resizing nothing", () => {
    expect(plan({ count: 3, capacityOwner: "platform", powerState: "deallocated" }).operations.map((o) => `${o.call}: ${o.summary}`)).toEqual([
      "DeallocateNodes: deallocates (VMs stopped, disks and private IPs kept) the pool's 2 node(s) (powerState running -> deallocated)",
    ]);
  });

  it("plans one CreateNodes to the program's count when the owner goes back to the program", () => {
    expect(plan({ count: 3 }).operations.map((o) => `${o.call}: ${o.summary}`)).toEqual(["CreateNodes: adds 1 node(s) to nodearray execute (2 -> 3)"]);
  });
});
