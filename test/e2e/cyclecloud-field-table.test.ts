import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { changingSteps, type RunResult, type StepRecord } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { expectPlannedAsAudited } from "../harness/planned";
import { ccAdmin, ccMutations, ccNodes, type CcNode, openCycleCloudStack } from "./cyclecloud-support";

/**
 * One row per input field: the change, the step kind preview must show, the exact mutating
 * CycleCloud calls of the `up` in order (reads left out), and the nodes that exist afterwards.
 */
interface Row {
  field: string;
  spec: Record<string, unknown>;
  op: "update" | "replace" | "same";
  calls: string[];
  /** `cluster/name:machineType` of every node after the up. */
  nodes: string[];
}

/** The pool's spec before the first row. */
const BASE_SPEC: Record<string, unknown> = { count: 2 };

const rows: Row[] = [
  { field: "count (2 -> 4) adds the difference in place", spec: { count: 4 }, op: "update", calls: ["CreateNodes demo"], nodes: ["demo/execute-1", "demo/execute-2", "demo/execute-3", "demo/execute-4"] },
  { field: "count (4 -> 1) removes the surplus in place", spec: { count: 1 }, op: "update", calls: ["RemoveNodes demo"], nodes: ["demo/execute-1"] },
  { field: "coreCount (1 node -> 5 cores of 2 vCPUs) adds two nodes in place", spec: { coreCount: 5 }, op: "update", calls: ["CreateNodes demo"], nodes: ["demo/execute-1", "demo/execute-2", "demo/execute-3"] },
  { field: "timeouts changes nothing on the platform", spec: { coreCount: 5, timeouts: { update: "5m" } }, op: "same", calls: [], nodes: ["demo/execute-1", "demo/execute-2", "demo/execute-3"] },
  {
    field: "machineType replaces, removing the old nodes first (the default order)",
    spec: { coreCount: 5, machineType: "Standard_F4s_v2" },
    op: "replace",
    calls: ["RemoveNodes demo", "CreateNodes demo"],
    nodes: ["demo/execute-1", "demo/execute-2"],
  },
  { field: "nameFormat replaces", spec: { count: 2, nameFormat: "w-%d" }, op: "replace", calls: ["RemoveNodes demo", "CreateNodes demo"], nodes: ["demo/w-1", "demo/w-2"] },
  { field: "nameOffset replaces", spec: { count: 2, nameFormat: "w-%d", nameOffset: 10 }, op: "replace", calls: ["RemoveNodes demo", "CreateNodes demo"], nodes: ["demo/w-10", "demo/w-11"] },
  {
    field: "nodeAttributes replaces",
    spec: { count: 2, nameFormat: "w-%d", nodeAttributes: { KeepAlive: true } },
    op: "replace",
    calls: ["RemoveNodes demo", "CreateNodes demo"],
    nodes: ["demo/w-1", "demo/w-2"],
  },
  {
    field: "placementGroupId replaces",
    spec: { count: 2, nameFormat: "w-%d", placementGroupId: "pg-1" },
    op: "replace",
    calls: ["RemoveNodes demo", "CreateNodes demo"],
    nodes: ["demo/w-1", "demo/w-2"],
  },
  { field: "nodearray replaces", spec: { nodearray: "gpu", count: 1 }, op: "replace", calls: ["RemoveNodes demo", "CreateNodes demo"], nodes: ["demo/gpu-1"] },
  { field: "clusterName replaces: the pool moves to the other cluster", spec: { clusterName: "other", nodearray: "gpu", count: 1 }, op: "replace", calls: ["RemoveNodes demo", "CreateNodes other"], nodes: ["other/gpu-1"] },
  {
    field: "a replacement with deleteBeforeReplace: false adds the new nodes first (its request ids differ)",
    spec: { clusterName: "other", nodearray: "gpu", count: 1, nameFormat: "g-%d", deleteBeforeReplace: false },
    op: "replace",
    calls: ["CreateNodes other", "RemoveNodes other"],
    nodes: ["other/g-1"],
  },
];

/*
 * Lanes: the program (programs/cyclecloud-lanes) holds one copy of the pool per lane, the resource
 * `p-<lane>`, whose clusters are `demo-<lane>` and `other-<lane>` (each lane gets both, with the
 * same nodearrays and quotas as the sequential table had). Lanes thus share no resource name,
 * request id, cluster, quota, placement group or node name. The rows are cut into contiguous
 * chunks, one per lane; a lane starts from the spec the sequential table had just before its
 * chunk's first row, and round r applies row r of every chunk in one configure, preview and up.
 */
const LANES = ["a", "b", "c"] as const;
type Lane = (typeof LANES)[number];
const CLUSTERS = ["demo", "other"] as const;

const chunkSize = Math.ceil(rows.length / LANES.length);
const chunks = LANES.map((lane, k) => ({ lane, start: k * chunkSize, rows: rows.slice(k * chunkSize, (k + 1) * chunkSize) }));
const rounds: { lane: Lane; row: Row }[][] = Array.from({ length: chunkSize }, (_, r) =>
  chunks.filter((c) => r < c.rows.length).map((c) => ({ lane: c.lane, row: c.rows[r] })),
);

/** The pool resource of a lane. */
const poolOf = (lane: Lane): string => `p-${lane}`;
/** A cluster of the table (`demo`, `other`) as the lane's program names it. */
const clusterOf = (lane: Lane, cluster: string): string => `${cluster}-${lane}`;
const laneClusters = (lane: Lane): string[] => CLUSTERS.map((c) => clusterOf(lane, c));
/** The lane a resource's steps belong to (its name's suffix). */
const laneOfResource = (name: string): string | undefined => name.split("-").pop();
/** The lane a CycleCloud call belongs to: every call names the cluster first in its target. */
const laneOfEntry = (entry: AuditEntry): Lane | undefined => LANES.find((lane) => laneClusters(lane).includes(entry.target.split("/")[0]));

/** A row's expected calls (`Operation cluster`) with the lane's cluster names. */
const laneCalls = (lane: Lane, calls: string[]): string[] =>
  calls.map((call) => {
    const [operation, cluster] = call.split(" ");
    return `${operation} ${clusterOf(lane, cluster)}`;
  });
/** A row's expected nodes (`cluster/name`) with the lane's cluster names. */
const laneNodes = (lane: Lane, nodes: string[]): string[] =>
  nodes.map((node) => {
    const [cluster, name] = node.split("/");
    return `${clusterOf(lane, cluster)}/${name}`;
  });
const nodesOfLane = (nodes: CcNode[], lane: Lane): CcNode[] => nodes.filter((n) => laneClusters(lane).includes(n.cluster));
const laneChanges = (result: RunResult, lane: Lane): StepRecord[] => changingSteps(result).filter((s) => laneOfResource(s.name) === lane);

function stepOf(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = changingSteps({ steps, outputs: {}, stdout: "" }).filter((s) => s.name === name);
  // A replacement shows as create-replacement + replace + delete-replaced; report it as one replace.
  if (mine.some((s) => s.op === "replace")) return mine.find((s) => s.op === "replace");
  return mine[0];
}

/** What one round did, for each of its rows to check. */
interface RoundResult {
  preview: RunResult;
  up: RunResult;
  /** The audit entries of the up. */
  audit: AuditEntry[];
  /** The nodes after the up. */
  nodes: CcNode[];
  /** The preview after the up: nothing should be left to do. */
  after: RunResult;
}

describe("cyclecloud:NodePool: each input field maps to the platform's own calls", () => {
  let t: TestStack;
  const results = new Map<number, Promise<RoundResult>>();

  async function runRound(r: number): Promise<RoundResult> {
    await t.configure(Object.fromEntries(rounds[r].map(({ lane, row }) => [`pools-${lane}`, { p: row.spec }])));
    const preview = await t.stack.preview();
    const since = await t.plane.lastSeq();
    const up = await t.stack.up();
    const audit = await t.plane.audit(since);
    const nodes = await ccNodes(t.plane);
    const after = await t.stack.preview();
    return { preview, up, audit, nodes, after };
  }

  /** Runs round r once (the first of its rows to ask does); a throw fails every row of the round. */
  function round(r: number): Promise<RoundResult> {
    let result = results.get(r);
    if (!result) {
      result = runRound(r);
      results.set(r, result);
    }
    return result;
  }

  beforeAll(async () => {
    // Each lane starts where the sequential table stood just before its chunk's first row; the
    // stack is opened with that config (one CLI call with the plane's own config).
    const starts = chunks.map((c) => [`test:pools-${c.lane}`, JSON.stringify({ p: c.start === 0 ? BASE_SPEC : rows[c.start - 1].spec })]);
    t = await openCycleCloudStack({ program: "cyclecloud-lanes", config: { "test:lanes": JSON.stringify(LANES), ...Object.fromEntries(starts) } });
    const gpu = { name: "gpu", machineType: "Standard_NC6", quota: 2 };
    const buckets = [
      { machineType: "Standard_F2s_v2", quota: 20 },
      { machineType: "Standard_F4s_v2", quota: 10 },
    ];
    for (const lane of LANES) {
      await ccAdmin(t.plane, "/_local/cyclecloud/clusters", { name: clusterOf(lane, "demo"), nodearrays: [{ name: "execute", buckets }, gpu] });
      await ccAdmin(t.plane, "/_local/cyclecloud/clusters", { name: clusterOf(lane, "other"), nodearrays: [gpu] });
    }
    await t.stack.up();
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  for (const [r, lanes] of rounds.entries()) {
    for (const { lane, row } of lanes) {
      it(row.field, async () => {
        const { preview, audit, nodes: allNodes, after } = await round(r);
        const pool = poolOf(lane);
        expect(stepOf(preview.steps, pool)?.op ?? "same").toBe(row.op);
        expect(laneChanges(preview, lane).filter((s) => s.name !== pool)).toEqual([]);
        // Every mutating call of the up belongs to one lane of the round: none escapes the filter below.
        expect(ccMutations(audit.filter((e) => laneOfEntry(e) === undefined))).toEqual([]);
        expect(ccMutations(audit.filter((e) => laneOfEntry(e) === lane))).toEqual(laneCalls(lane, row.calls));
        // The operations plan of the previewed change is exactly what the up did (issue 18).
        expectPlannedAsAudited(stepOf(preview.steps, pool), audit.filter((e) => e.api === "cyclecloud" && laneOfEntry(e) === lane));
        const nodes = nodesOfLane(allNodes, lane);
        const expected = laneNodes(lane, row.nodes);
        expect(nodes.map((n) => `${n.cluster}/${n.name}`).sort()).toEqual(expected);
        expect(nodes.map((n) => n.state)).toEqual(expected.map(() => "Ready"));
        expect(laneChanges(after, lane)).toEqual([]);
      });
    }
  }

  it("gave the nodes what the fields asked: attributes, placement group and VM size", async () => {
    // The last lane holds the state the sequential table ended with.
    const lane = chunks[chunks.length - 1].lane;
    await t.configure({ [`pools-${lane}`]: { p: { count: 1, machineType: "Standard_F4s_v2", nodeAttributes: { KeepAlive: true }, placementGroupId: "pg-2" } } });
    await t.stack.up();
    const [node] = nodesOfLane(await ccNodes(t.plane), lane);
    expect([node.machineType, node.attributes.KeepAlive, node.placementGroup]).toEqual(["Standard_F4s_v2", true, "pg-2"]);
  });
});
