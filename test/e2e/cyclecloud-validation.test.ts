import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { ccMutations, ccNodes, openCycleCloudStack } from "./cyclecloud-support";

const pool = (spec: Record<string, unknown>) => ({ pools: { p: { count: 1, ...spec } } });

/** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
const badInputs: [string, Record<string, unknown>, string, RegExp][] = [
  ["count and coreCount together", pool({ coreCount: 4 }), "count", /count and coreCount cannot both be set: give one of them, got count 1 and coreCount 4/],
  ["neither count nor coreCount", pool({ count: null }), "inputs", /must set either count \(nodes\) or coreCount \(cores\), got neither/],
  ["a negative count", pool({ count: -1 }), "count", /integer between 0 and 1000, got -1/],
  ["a count above the limit", pool({ count: 1001 }), "count", /integer between 0 and 1000, got 1001/],
  ["a fractional count", pool({ count: 2.5 }), "count", /integer between 0 and 1000, got 2\.5/],
  ["a negative coreCount", pool({ count: null, coreCount: -8 }), "coreCount", /integer between 0 and 100000, got -8/],
  ["a nameFormat without %d", pool({ nameFormat: "worker" }), "nameFormat", /exactly one "%d".*got "worker"/],
  ["a nameFormat with two %d", pool({ nameFormat: "w-%d-%d" }), "nameFormat", /got "w-%d-%d"/],
  ["a nameFormat with a space", pool({ nameFormat: "my node %d" }), "nameFormat", /got "my node %d"/],
  ["a negative nameOffset", pool({ nameOffset: -3 }), "nameOffset", /integer between 0 and 1000000, got -3/],
  ["a cluster name with a slash", pool({ clusterName: "demo/x" }), "clusterName", /letters, digits, '_', '\.' or '-'.*got "demo\/x"/],
  ["an empty nodearray", pool({ nodearray: "" }), "nodearray", /got ""/],
  ["a machine type with a space", pool({ machineType: "Standard F2s" }), "machineType", /Azure VM size.*got "Standard F2s"/],
  ["a node attribute CycleCloud sets itself", pool({ nodeAttributes: { MachineType: "x" } }), "nodeAttributes", /key "MachineType" is set by CycleCloud/],
  ["a node attribute name with a dash", pool({ nodeAttributes: { "keep-alive": true } }), "nodeAttributes", /key "keep-alive" must be a node attribute name/],
  ["a placement group with a space", pool({ placementGroupId: "pg 1" }), "placementGroupId", /got "pg 1"/],
  ["a timeout that is not a duration", pool({ timeouts: { create: "soon" } }), "timeouts.create", /duration.*got "soon"/],
];

describe("cyclecloud:NodePool: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openCycleCloudStack();
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each(badInputs)("rejects %s", async (_what, change, field, reason) => {
    // JSON has no undefined: null in a spec stands for "not given".
    const spec = Object.fromEntries(Object.entries((change.pools as { p: Record<string, unknown> }).p).filter(([, v]) => v !== null));
    await t.configure({ pools: { p: spec } });
    const since = await t.plane.lastSeq();
    const failure = await t.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toBeDefined();
    expect(failure).toMatch(new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`));
    expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    expect(await t.plane.audit(since)).toEqual([]);
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
