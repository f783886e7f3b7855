import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { cyclecloudNodePool } from "./kind";
import { testHandler } from "../../testing";

const nodePoolHandler = testHandler(cyclecloudNodePool);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';

/** What the SDK sends for `new cyclecloud.NodePool("workers", { clusterName: "demo", nodearray: "execute", count: 2 })`. */
const raw: Props = { __provider: PROVIDER, owner: "0123456789abcdef", resourceName: "workers", clusterName: "demo", nodearray: "execute", count: 2 };

const NAME = "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit, got";
const COUNT = "count must be an integer between 0 and 1000, got";
const CORES = "coreCount must be an integer between 0 and 100000, got";
const FORMAT = 'must be a node name pattern with exactly one "%d" (the node index) and otherwise letters, digits, \'_\', \'.\' or \'-\', such as "compute-%d", got';

async function reasons(patch: Props): Promise<string[]> {
  const { failures } = await nodePoolHandler.check({}, { ...raw, ...patch });
  return (failures ?? []).map((f) => f.reason);
}

describe("nodePoolHandler.check", () => {
  it.each<[string, Props]>([
    ["a count", {}],
    ["a pool of zero nodes", { count: 0 }],
    ["a core count instead of a count", { count: undefined, coreCount: 16 }],
    [
      "every optional field",
      { machineType: "Standard_F2s_v2", nameFormat: "w-%d", nameOffset: 10, nodeAttributes: { KeepAlive: true, Configuration: { a: 1 } }, placementGroupId: "pg-1", timeouts: { create: "5m" } },
    ],
    ["a name format that starts with the index", { nameFormat: "%d-worker" }],
    ["unknown values in preview", { count: UNKNOWN, clusterName: UNKNOWN, nameFormat: UNKNOWN, nodeAttributes: UNKNOWN }],
  ])("accepts %s", async (_, patch) => {
    const { inputs, failures } = await nodePoolHandler.check({}, { ...raw, ...patch });
    expect(failures).toEqual([]);
    expect(inputs).toEqual(Object.fromEntries(Object.entries({ ...raw, ...patch }).filter(([, v]) => v !== undefined)));
  });

  it.each<[string, Props, string[]]>([
    ["count and coreCount together", { coreCount: 4 }, ["count and coreCount cannot both be set: give one of them, got count 2 and coreCount 4"]],
    ["neither count nor coreCount", { count: undefined }, ["inputs must set either count (nodes) or coreCount (cores), got neither"]],
    ["a negative count", { count: -1 }, [`${COUNT} -1`]],
    ["a fractional count", { count: 1.5 }, [`${COUNT} 1.5`]],
    ["a count past the limit", { count: 1001 }, [`${COUNT} 1001`]],
    ["a count given as a string", { count: "3" }, [`${COUNT} "3"`]],
    ["a negative coreCount", { count: undefined, coreCount: -4 }, [`${CORES} -4`]],
    ["a nameFormat without %d", { nameFormat: "worker" }, [`nameFormat ${FORMAT} "worker"`]],
    ["a nameFormat with two %d", { nameFormat: "w-%d-%d" }, [`nameFormat ${FORMAT} "w-%d-%d"`]],
    ["a nameFormat with a space", { nameFormat: "my node-%d" }, [`nameFormat ${FORMAT} "my node-%d"`]],
    ["a nameFormat with another verb", { nameFormat: "w-%s" }, [`nameFormat ${FORMAT} "w-%s"`]],
    ["a negative nameOffset", { nameOffset: -1 }, ["nameOffset must be an integer between 0 and 1000000, got -1"]],
    ["an empty cluster name", { clusterName: "" }, [`clusterName ${NAME} ""`]],
    ["a cluster name with a slash", { clusterName: "a/b" }, [`clusterName ${NAME} "a/b"`]],
    ["a nodearray starting with '-'", { nodearray: "-x" }, [`nodearray ${NAME} "-x"`]],
    ["a missing nodearray", { nodearray: undefined }, [`nodearray ${NAME} nothing`]],
    ["a machine type with a space", { machineType: "Standard F2" }, [`machineType must be an Azure VM size such as "Standard_F2s_v2": a letter, then up to 63 letters, digits or '_', got "Standard F2"`]],
    [
      "a reserved node attribute",
      { nodeAttributes: { State: "Ready" } },
      ['nodeAttributes key "State" is set by CycleCloud and cannot be given; reserved: Name, NodeId, ClusterName, Template, MachineType, Region, State, Status, TargetState, StatusMessage, Hostname, PrivateIp, InstanceId, RequestId, PlacementGroupId, Interruptible'],
    ],
    ["a node attribute with a dot", { nodeAttributes: { "a.b": 1 } }, ['nodeAttributes key "a.b" must be a node attribute name: a letter, then up to 63 letters, digits or \'_\' (such as "KeepAlive")']],
    ["node attributes that are a list", { nodeAttributes: [1] }, ["nodeAttributes must be a record, got [1]"]],
    ["a placement group with a space", { placementGroupId: "p g" }, [`placementGroupId ${NAME} "p g"`]],
    ["an unknown field", { size: 3 }, ["size is not a known field"]],
    ["a bad timeout", { timeouts: { create: "soon" } }, ['timeouts.create must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got "soon"']],
  ])("rejects %s, naming the field, the value and what is allowed", async (_, patch, expected) => {
    expect(await reasons(patch)).toEqual(expected);
  });
});

/** The outputs create adds to the state next to the inputs. */
const OUTPUTS: Props = { nodeIds: ["a", "b"], nodeNames: ["execute-1", "execute-2"], readyCount: 2, lastOperationId: "op", requestSeq: 1, coresPerNode: 2 };

async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds, failures: oldFailures } = await nodePoolHandler.check({}, { ...raw, ...oldPatch });
  const { inputs: news, failures } = await nodePoolHandler.check(olds, { ...raw, ...newPatch });
  expect([oldFailures, failures]).toEqual([[], []]);
  return nodePoolHandler.diff("demo/execute/x", { ...olds, ...OUTPUTS }, news);
}

const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (replaces: string[], deleteBeforeReplace = true) => ({ changes: true, replaces, deleteBeforeReplace });

describe("nodePoolHandler.diff", () => {
  it.each<[string, Props, Props, object]>([
    ["plans nothing when nothing changed", {}, {}, NO_CHANGE],
    ["plans nothing when timeouts change", {}, { timeouts: { create: "2s" } }, NO_CHANGE],
    ["plans nothing when node attribute keys are reordered", { nodeAttributes: { A: 1, B: 2 } }, { nodeAttributes: { B: 2, A: 1 } }, NO_CHANGE],
    ["resizes in place when count rises", {}, { count: 5 }, IN_PLACE],
    ["resizes in place when count drops to zero", {}, { count: 0 }, IN_PLACE],
    ["resizes in place when count is unknown", {}, { count: UNKNOWN }, IN_PLACE],
    ["resizes in place when switching from count to coreCount", {}, { count: undefined, coreCount: 8 }, IN_PLACE],
    ["resizes in place when coreCount changes", { count: undefined, coreCount: 4 }, { count: undefined, coreCount: 6 }, IN_PLACE],
    ["replaces, deleting first, when clusterName changes", {}, { clusterName: "other" }, replace(["clusterName"])],
    ["replaces, deleting first, when nodearray changes", {}, { nodearray: "gpu" }, replace(["nodearray"])],
    ["replaces when machineType is set", {}, { machineType: "Standard_F2s_v2" }, replace(["machineType"])],
    ["replaces when nameFormat changes", {}, { nameFormat: "w-%d" }, replace(["nameFormat"])],
    ["replaces when nameOffset changes", {}, { nameOffset: 5 }, replace(["nameOffset"])],
    ["replaces when a node attribute changes", { nodeAttributes: { A: 1 } }, { nodeAttributes: { A: 2 } }, replace(["nodeAttributes"])],
    ["replaces when placementGroupId changes", {}, { placementGroupId: "pg" }, replace(["placementGroupId"])],
    ["replaces when nodearray is unknown", {}, { nodearray: UNKNOWN }, replace(["nodearray"])],
    ["replaces and resizes at once as one replacement", {}, { nodearray: "gpu", count: 1 }, replace(["nodearray"])],
    ["replaces creating first when asked, as request ids change", {}, { deleteBeforeReplace: false, nodearray: "gpu" }, replace(["nodearray"], false)],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect(await diffOf(oldPatch, newPatch)).toEqual(expected);
  });

  it.each<[string, Props]>([
    ["timeouts", { timeouts: { delete: "1s" } }],
    ["owner", { owner: "fedcba9876543210" }],
    ["resourceName", { resourceName: "renamed" }],
    ["__provider", { __provider: "exports.handler = {}" }],
  ])("never plans a change for `%s` alone", async (_, change) => {
    const { inputs: olds } = await nodePoolHandler.check({}, raw);
    expect(await nodePoolHandler.diff("demo/execute/x", { ...olds, ...OUTPUTS }, { ...olds, ...change })).toEqual(NO_CHANGE);
  });

  it("ignores old outputs: a lower readyCount alone plans nothing (refresh lowers count instead)", async () => {
    const { inputs: olds } = await nodePoolHandler.check({}, raw);
    expect(await nodePoolHandler.diff("demo/execute/x", { ...olds, ...OUTPUTS, readyCount: 0 }, olds)).toEqual(NO_CHANGE);
  });
});
