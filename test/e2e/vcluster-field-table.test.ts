import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps, type RunResult, type StepRecord } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { expectPlannedAsAudited } from "../harness/planned";

const READS = new Set(["GetVCluster", "ListVClusters", "WatchVCluster", "GetSnapshot", "ListSnapshots", "GetVClusterKubeconfig"]);
const writes = (entries: AuditEntry[]) => entries.filter((e) => e.api === "vcluster" && !READS.has(e.operation));

/** What a row's expected calls need of the lane it runs in. */
interface LaneView {
  /** The audit target of the vcluster the table calls `namespace/name`, as this lane names it. */
  at(namespace: string, name: string): string;
  /** The lane's snapshot id before the `up`. */
  snapshotId: string;
}

/**
 * One row per input field: the change (merged into the vcluster's or the snapshot's arguments), the
 * step preview must show, the exact mutating calls of the `up` (reads and watches left out) and
 * the update_mask of every UpdateVCluster it sent. Names are the table's: each lane renames them.
 */
interface Row {
  field: string;
  resource: "main" | "snap";
  vc?: Record<string, unknown>;
  snapshot?: Record<string, unknown>;
  op: "update" | "replace" | "same";
  calls: (lane: LaneView) => string[];
  masks?: string[][];
}

type Key = readonly [namespace: string, name: string];
const A: Key = ["team-a", "ft"];
const update = (operation: string) => (l: LaneView) => [`${operation} ${l.at(...A)}`];
const replaceMain =
  (before: Key, after = before) =>
  (l: LaneView) => [`DeleteVCluster ${l.at(...before)}`, `CreateVCluster ${l.at(...after)}`];

const rows: Row[] = [
  { field: "kubernetesVersion: one UpdateVCluster", resource: "main", vc: { kubernetesVersion: "1.29.0" }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.kubernetes_version"]] },
  { field: "enableHa: one UpdateVCluster", resource: "main", vc: { enableHa: true }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.enable_ha"]] },
  { field: "helmValues: one UpdateVCluster", resource: "main", vc: { helmValues: "syncer:\n  extraArgs: []\n" }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.helm_values"]] },
  { field: "sync: one UpdateVCluster", resource: "main", vc: { sync: { syncNodes: true, customResources: ["certificates.cert-manager.io"] } }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.sync"]] },
  { field: "plugins: one UpdateVCluster", resource: "main", vc: { plugins: [{ name: "hooks", version: "0.1.0", enabled: true }] }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.plugins"]] },
  { field: "ingress: one UpdateVCluster", resource: "main", vc: { ingress: { enabled: true, hostname: "ft.example.com" } }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.ingress"]] },
  { field: "serviceAccount: one UpdateVCluster", resource: "main", vc: { serviceAccount: { name: "vc-ft", automountToken: true } }, op: "update", calls: update("UpdateVCluster"), masks: [["spec.service_account"]] },
  { field: "labels: in place by UpdateVCluster", resource: "main", vc: { labels: { env: "dev" } }, op: "update", calls: update("UpdateVCluster"), masks: [["labels"]] },
  {
    field: "several UpdateVCluster fields at once: one call whose mask names exactly those",
    resource: "main",
    vc: { kubernetesVersion: "1.30.2", labels: { env: "prod" }, enableHa: false },
    op: "update",
    calls: update("UpdateVCluster"),
    masks: [["spec.kubernetes_version", "spec.enable_ha", "labels"]],
  },
  { field: "replicas: ScaleVCluster", resource: "main", vc: { replicas: 3 }, op: "update", calls: update("ScaleVCluster") },
  { field: "resources: ScaleVCluster", resource: "main", vc: { resources: { cpuRequest: "500m", memoryLimit: "1Gi" } }, op: "update", calls: update("ScaleVCluster") },
  { field: "suspended true: SuspendVCluster", resource: "main", vc: { suspended: true }, op: "update", calls: update("SuspendVCluster") },
  { field: "suspended false: ResumeVCluster", resource: "main", vc: { suspended: false }, op: "update", calls: update("ResumeVCluster") },
  { field: "timeouts: nothing on the platform", resource: "main", vc: { timeouts: { update: "5m" } }, op: "same", calls: () => [] },
  { field: "restoreFrom after creation: nothing on the platform", resource: "main", vc: { restoreFrom: "snap-0-0" }, op: "same", calls: () => [] },
  // restoreFrom is used at creation: the replacements below would restore from it, so it goes.
  { field: "distro: replace, deleting first", resource: "main", vc: { distro: "k8s", restoreFrom: undefined }, op: "replace", calls: replaceMain(A) },
  { field: "network: replace", resource: "main", vc: { network: { podCidr: "10.42.0.0/16", serviceCidr: "10.96.0.0/12" } }, op: "replace", calls: replaceMain(A) },
  { field: "storage: replace", resource: "main", vc: { storage: { enablePersistence: true, persistenceSize: "5Gi" } }, op: "replace", calls: replaceMain(A) },
  { field: "isolationMode: replace", resource: "main", vc: { isolationMode: "lite" }, op: "replace", calls: replaceMain(A) },
  { field: "owner: replace", resource: "main", vc: { owner: "alice" }, op: "replace", calls: replaceMain(A) },
  { field: "project: replace", resource: "main", vc: { project: "web" }, op: "replace", calls: replaceMain(A) },
  { field: "namespace: replace", resource: "main", vc: { namespace: "team-b" }, op: "replace", calls: replaceMain(A, ["team-b", "ft"]) },
  { field: "name: replace", resource: "main", vc: { name: "ft2" }, op: "replace", calls: replaceMain(["team-b", "ft"], ["team-b", "ft2"]) },
  ...(
    [
      ["description", { description: "nightly" }],
      ["retentionHours", { retentionHours: 48 }],
      ["labels", { labels: { kind: "nightly" } }],
      ["includeWorkloads", { includeWorkloads: true }],
      ["name", { name: "s2" }],
    ] as const
  ).map(
    ([field, change]): Row => ({
      field: `Snapshot.${field}: replace, deleting first`,
      resource: "snap",
      snapshot: change,
      op: "replace",
      calls: (l) => [`DeleteSnapshot ${l.snapshotId}`, `SnapshotVCluster ${l.at("team-b", "ft2")}`],
    }),
  ),
];

/*
 * Lanes: the program holds LANES independent copies of the table's resources (vcluster `main-<k>`
 * and snapshot `snap-<k>`, configured by `test:vc<k>` and `test:snapshot<k>`). The rows are cut into
 * LANES contiguous chunks; lane k starts where the sequential table stood before its chunk's first
 * row (the base arguments plus every earlier row's change), and round r applies row r of every
 * chunk in one configure, one preview and one up. Each lane suffixes the names of its vclusters and
 * snapshots with `-l<k>` (names are unique per namespace), so every audit target, update mask and
 * step is told apart by lane.
 */
const LANES = 3;
const BASE = { vc: { namespace: "team-a", name: "ft" }, snapshot: { name: "s1" } };

const laneName = (name: string, lane: number) => `${name}-l${lane}`;
const laneOfName = (name: string): number | undefined => {
  const match = /-l(\d+)$/.exec(name);
  return match ? Number(match[1]) : undefined;
};
const laneOfStep = (step: StepRecord): number | undefined => {
  const match = /^(?:main|snap)-(\d+)$/.exec(step.name);
  return match ? Number(match[1]) : undefined;
};
/** The arguments as lane `lane` sends them: the table's names suffixed. */
const inLane = (args: Record<string, unknown>, lane: number) => (typeof args.name === "string" ? { ...args, name: laneName(args.name, lane) } : args);

/** Contiguous chunks of the rows, one per lane, the first ones a row longer when they do not divide evenly. */
const chunkStarts = Array.from({ length: LANES + 1 }, (_, k) => k * Math.floor(rows.length / LANES) + Math.min(k, rows.length % LANES));
const chunks = Array.from({ length: LANES }, (_, k) => rows.slice(chunkStarts[k], chunkStarts[k + 1]));

/** The arguments the sequential table had before row `index`: the base plus every earlier row's change. */
function argsBefore(index: number): { vc: Record<string, unknown>; snapshot: Record<string, unknown> } {
  let { vc, snapshot }: { vc: Record<string, unknown>; snapshot: Record<string, unknown> } = BASE;
  for (const row of rows.slice(0, index)) {
    vc = { ...vc, ...row.vc };
    snapshot = { ...snapshot, ...row.snapshot };
  }
  return { vc, snapshot };
}

interface Case {
  round: number;
  lane: number;
  row: Row;
  field: string;
}
const rounds: Case[][] = Array.from({ length: Math.max(...chunks.map((c) => c.length)) }, (_, round) =>
  chunks.flatMap((chunk, lane) => (round < chunk.length ? [{ round, lane, row: chunk[round], field: chunk[round].field }] : [])),
);

interface LaneOutputs {
  name: string;
  namespace: string;
  vclusterId: string;
  snapshotId: string;
}

interface UpdateMask {
  namespace: string;
  name: string;
  paths: string[];
}

/** What one round did, for each of its rows to check its own lane. */
interface RoundResult {
  preview: RunResult;
  /** Each lane's outputs before the up (snapshot ids). */
  before: LaneOutputs[];
  /** Mutating vcluster calls of the up, each with the lane it targets (undefined: no lane's). */
  calls: { lane: number | undefined; call: string; entry: AuditEntry }[];
  /** UpdateVCluster masks the up sent. */
  masks: UpdateMask[];
  /** Changing steps of the preview outside the lanes this round changes: must be none. */
  strayChanges: StepRecord[];
}

function stepOf(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = changingSteps({ steps, outputs: {}, stdout: "" }).filter((s) => s.name === name);
  if (mine.some((s) => s.op === "replace")) return mine.find((s) => s.op === "replace");
  return mine[0];
}

describe("vcluster: each input field maps to the platform's own operation", () => {
  let t: TestStack;
  const state = chunkStarts.slice(0, LANES).map(argsBefore);
  /** The stack's lane outputs after the last up; undefined when it failed (read them from the stack then). */
  let outputs: LaneOutputs[] | undefined;
  /** Every snapshot id a lane has had: DeleteSnapshot's audit target is the id. */
  const snapshotLanes = new Map<string, number>();
  const results = new Map<number, Promise<RoundResult>>();
  const masks = async () => (await t.plane.admin<{ updates: UpdateMask[] }>("/_local/vcluster/update-masks")).updates;

  const remember = (lanes: LaneOutputs[]) => {
    lanes.forEach((l, k) => {
      if (l.snapshotId) snapshotLanes.set(l.snapshotId, k);
    });
    return lanes;
  };
  const laneOfTarget = (target: string): number | undefined => (target.includes("/") ? laneOfName(target.split("/")[1]) : snapshotLanes.get(target));
  const laneConfig = (lane: number) => ({ [`vc${lane}`]: inLane(state[lane].vc, lane), [`snapshot${lane}`]: inLane(state[lane].snapshot, lane) });

  async function runRound(round: number): Promise<RoundResult> {
    const cases = rounds[round];
    let values: Record<string, unknown> = {};
    for (const { lane, row } of cases) {
      state[lane] = { vc: { ...state[lane].vc, ...row.vc }, snapshot: { ...state[lane].snapshot, ...row.snapshot } };
      values = { ...values, ...laneConfig(lane) };
    }
    await t.configure(values);
    // The preview shows each lane's row and nothing else: the previous round's up converged (the
    // last round is followed by an empty preview below).
    const preview = await t.stack.preview();
    const active = new Set(cases.map((c) => c.lane));
    const strayChanges = changingSteps(preview).filter((s) => !active.has(laneOfStep(s) ?? -1));

    const before = remember(outputs ?? ((await t.stack.stack.outputs()).lanes.value as LaneOutputs[]));
    const [since, masksBefore] = [await t.plane.lastSeq(), (await masks()).length];
    outputs = undefined;
    const up = await t.stack.up();
    outputs = remember(up.outputs.lanes as LaneOutputs[]);
    const calls = writes(await t.plane.audit(since)).map((e) => ({ lane: laneOfTarget(e.target), call: `${e.operation} ${e.target}`, entry: e }));
    return { preview, before, calls, masks: (await masks()).slice(masksBefore), strayChanges };
  }

  /** The round's result: the first row of a round runs it, the others share it (and its failure). */
  const roundResult = (round: number): Promise<RoundResult> => {
    let result = results.get(round);
    if (!result) {
      result = runRound(round);
      results.set(round, result);
    }
    return result;
  };

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster-lanes", workspace: "vcluster-field-table", timeScale: 0.1 });
    await t.configure(Object.assign({ lanes: LANES }, ...state.map((_, lane) => laneConfig(lane))));
    outputs = remember((await t.stack.up()).outputs.lanes as LaneOutputs[]);
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  it.each(rounds.flat())("$field", async ({ round, lane, row }) => {
    const result = await roundResult(round);
    const name = `${row.resource}-${lane}`;
    const step = stepOf(result.preview.steps, name);
    expect(step?.op ?? "same").toBe(row.op);
    // A replaced vcluster takes its snapshot along (it depends on the vcluster); nothing else of
    // the lane moves, nor anything of a lane this round leaves alone.
    const along = row.resource === "main" && row.op === "replace" ? [`snap-${lane}`] : [];
    expect(changingSteps(result.preview).filter((s) => laneOfStep(s) === lane && s.name !== name && !along.includes(s.name))).toEqual([]);
    expect(result.strayChanges).toEqual([]);

    // No call of the up went to an object of no lane; this lane's are exactly the row's.
    expect(result.calls.filter((c) => c.lane === undefined)).toEqual([]);
    const mine = result.calls.filter((c) => c.lane === lane && (row.resource === "snap" || !/Snapshot/.test(c.call)));
    const calls = mine.map((c) => c.call);
    const view: LaneView = { at: (namespace, objectName) => `${namespace}/${laneName(objectName, lane)}`, snapshotId: result.before[lane].snapshotId };
    expect(calls).toEqual(row.calls(view));
    // The operations plan of the previewed change is exactly what the up did (issue 18).
    expectPlannedAsAudited(step, mine.map((c) => c.entry));
    expect(result.masks.filter((m) => laneOfName(m.name) === undefined)).toEqual([]);
    expect(result.masks.filter((m) => laneOfName(m.name) === lane).map((m) => m.paths)).toEqual(row.masks ?? []);
  });

  it("previews nothing to do after the last row", async () => {
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });
});
