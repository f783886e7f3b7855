import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPreviews, ownErrorLines } from "../harness/bad-inputs";
import type { TestStack } from "../harness/cmassh-stack";
import { ccMutations, ccNodes, openCycleCloudStack } from "./cyclecloud-support";

const pool = (spec: Record<string, unknown>) => ({ pools: { p: { count: 1, ...spec } } });

/**
 * Bad pool specs previewed together: the provider's check reports every failure of the pool at
 * once. No two inputs of a group share a field. The rule "count or coreCount, not both" runs only
 * when the rest of the pool is valid, so its two inputs go alone; the node-attribute rules run
 * per attribute map.
 */
interface Group {
  /** The pool spec of the group's preview; null stands for "not given". */
  pool: Record<string, unknown>;
  /** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
  inputs: [string, string, RegExp][];
}

const groups: Group[] = [
  {
    pool: { coreCount: 4 },
    inputs: [["count and coreCount together", "count", /count and coreCount cannot both be set: give one of them, got count 1 and coreCount 4/]],
  },
  {
    pool: { count: null },
    inputs: [["neither count nor coreCount", "inputs", /must set either count \(nodes\) or coreCount \(cores\), got neither/]],
  },
  {
    pool: { count: -1, coreCount: -8, nameFormat: "worker", nameOffset: -3, nodeAttributes: { MachineType: "x" }, placementGroupId: "pg 1" },
    inputs: [
      ["a negative count", "count", /integer between 0 and 1000, got -1/],
      ["a negative coreCount", "coreCount", /integer between 0 and 100000, got -8/],
      ["a nameFormat without %d", "nameFormat", /exactly one "%d".*got "worker"/],
      ["a negative nameOffset", "nameOffset", /integer between 0 and 1000000, got -3/],
      ["a node attribute CycleCloud sets itself", "nodeAttributes", /key "MachineType" is set by CycleCloud/],
      ["a placement group with a space", "placementGroupId", /got "pg 1"/],
    ],
  },
  {
    pool: { count: 1001, nameFormat: "w-%d-%d", clusterName: "demo/x", nodeAttributes: { "keep-alive": true }, machineType: "Standard F2s" },
    inputs: [
      ["a count above the limit", "count", /integer between 0 and 1000, got 1001/],
      ["a nameFormat with two %d", "nameFormat", /got "w-%d-%d"/],
      ["a cluster name with a slash", "clusterName", /letters, digits, '_', '\.' or '-'.*got "demo\/x"/],
      ["a node attribute name with a dash", "nodeAttributes", /key "keep-alive" must be a node attribute name/],
      ["a machine type with a space", "machineType", /Azure VM size.*got "Standard F2s"/],
    ],
  },
  {
    pool: { count: 2.5, nameFormat: "my node %d", nodearray: "", timeouts: { create: "soon" } },
    inputs: [
      ["a fractional count", "count", /integer between 0 and 1000, got 2\.5/],
      ["a nameFormat with a space", "nameFormat", /got "my node %d"/],
      ["an empty nodearray", "nodearray", /got ""/],
      ["a timeout that is not a duration", "timeouts.create", /duration.*got "soon"/],
    ],
  },
];

const badInputs = groups.flatMap((group) => group.inputs.map(([what, field, reason]) => [what, group, field, reason] as const));

describe("cyclecloud:NodePool: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openCycleCloudStack();
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The first `it` of a group runs its preview; the others of the group read the same result.
  const previewOf = groupPreviews<Group>(
    () => t,
    async (group) => {
      // JSON has no undefined: null in a spec stands for "not given".
      const spec = Object.fromEntries(Object.entries(pool(group.pool).pools.p).filter(([, v]) => v !== null));
      await t.configure({ pools: { p: spec } });
    },
  );

  it.each(badInputs)("rejects %s", async (_what, group, field, reason) => {
    const { failure, calls } = await previewOf(group);
    expect(failure).toBeDefined();
    const named = new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`);
    expect(failure).toMatch(named);
    expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    // The same on this input's own messages: those of the pool that name the field.
    const own = ownErrorLines(failure, "p", named);
    expect(own).toMatch(reason);
    expect(calls).toEqual([]);
  });

  it("fails an unknown nodearray at up with the server's answer and the nodearrays that exist, changing nothing", async () => {
    await t.configure(pool({ nodearray: "cpu" }));
    const since = await t.plane.lastSeq();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toContain('GetClusterStatus cluster "demo": UNKNOWN_NODEARRAY: cluster "demo" has no nodearray "cpu"; its nodearrays: execute, gpu');
    expect(ccMutations(await t.plane.audit(since))).toEqual([]);
    expect(await ccNodes(t.plane)).toEqual([]);
  });

  it("fails a cluster CycleCloud does not know at up with its answer", async () => {
    await t.configure(pool({ clusterName: "nowhere" }));
    await expect(t.stack.up()).rejects.toThrow('GetClusterStatus cluster "nowhere": HTTP 404: cluster "nowhere" not found');
  });
});
