import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type RunResult } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { expectPlannedAsAudited, previewStep } from "../harness/planned";
import { openSenlinStack, type SenlinClusterView, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

type Spec = Record<string, unknown>;

/** A Senlin action as GET /_local/senlin/actions shows it. */
interface ActionView {
  action: string;
  target: string;
  inputs: Record<string, unknown>;
  created_at: string;
}

/** What the plane held right after a round's `up`, seen from one lane: its cluster and its actions. */
interface LaneView {
  cluster: SenlinClusterView;
  actions: ActionView[];
}

/**
 * One row per input field: the new cluster spec, the step kind preview must show, the exact
 * mutating Senlin calls of the `up` (`<operation>` on the cluster's id), and what the cluster or
 * its last action must then hold.
 */
interface Row {
  field: string;
  spec: Spec;
  op: "update" | "same";
  calls: string[];
  expect?: (view: LaneView) => void;
}

const base: Spec = { profile: "web-profile", minSize: 1, desiredCapacity: 1, maxSize: 3, policies: [{ policy: "deletion" }] };
let spec: Spec = base;
const next = (change: Spec): Spec => {
  spec = { ...spec, ...change };
  return spec;
};

function lastResize(view: LaneView): Record<string, unknown> {
  const resizes = view.actions.filter((a) => a.action === "CLUSTER_RESIZE");
  return resizes[resizes.length - 1].inputs;
}

const resize = (number: number, min: number, max: number) => (view: LaneView) => {
  expect(lastResize(view)).toEqual({ adjustment_type: "EXACT_CAPACITY", number, min_size: min, max_size: max, min_step: null, strict: true });
  const c = view.cluster;
  expect([c.desired_capacity, c.min_size, c.max_size, c.nodes.length]).toEqual([number, min, max, number]);
};

const rows: Row[] = [
  { field: "desiredCapacity (1 -> 3) is one resize, EXACT_CAPACITY with the bounds", spec: next({ desiredCapacity: 3 }), op: "update", calls: ["ResizeCluster"], expect: resize(3, 1, 3) },
  { field: "maxSize (3 -> 5) is one resize", spec: next({ maxSize: 5 }), op: "update", calls: ["ResizeCluster"], expect: resize(3, 1, 5) },
  { field: "minSize (1 -> 2) is one resize", spec: next({ minSize: 2 }), op: "update", calls: ["ResizeCluster"], expect: resize(3, 2, 5) },
  { field: "all three sizes at once are still one resize", spec: next({ minSize: 0, desiredCapacity: 1, maxSize: -1 }), op: "update", calls: ["ResizeCluster"], expect: resize(1, 0, -1) },
  {
    field: "name is one PATCH",
    spec: next({ name: "web-tier" }),
    op: "update",
    calls: ["UpdateCluster"],
    expect: (view) => expect(view.cluster.name).toBe("web-tier"),
  },
  {
    field: "metadata is one PATCH that keeps the owner marker",
    spec: next({ metadata: { team: "web" } }),
    op: "update",
    calls: ["UpdateCluster"],
    expect: (view) => expect(view.cluster.metadata).toEqual({ team: "web", "clusterform.dev/owner": expect.stringMatching(/^[0-9a-f]{16}$/) }),
  },
  { field: "timeout is one PATCH", spec: next({ timeout: 600 }), op: "update", calls: ["UpdateCluster"], expect: (view) => expect(view.cluster.timeout).toBe(600) },
  {
    field: "config is one PATCH",
    spec: next({ config: { "node.name.format": "web-$3I" } }),
    op: "update",
    calls: ["UpdateCluster"],
    expect: (view) => expect(view.cluster.config).toEqual({ "node.name.format": "web-$3I" }),
  },
  {
    field: "profile is one PATCH (Senlin's rolling update)",
    spec: next({ profile: "web-profile-2" }),
    op: "update",
    calls: ["UpdateCluster"],
    expect: (view) => expect(view.cluster.profile_name).toBe("web-profile-2"),
  },
  { field: "profileOnly alone changes nothing", spec: next({ profileOnly: true }), op: "same", calls: [] },
  { field: "timeouts change nothing on the platform", spec: next({ timeouts: { update: "10m" } }), op: "same", calls: [] },
  { field: "name, metadata and timeout together are still one PATCH", spec: next({ name: "web", metadata: {}, timeout: 900 }), op: "update", calls: ["UpdateCluster"] },
  {
    field: "a new policy is one policy_attach, the unchanged one untouched",
    spec: next({ policies: [{ policy: "deletion" }, { policy: "affinity" }] }),
    op: "update",
    calls: ["AttachClusterPolicy"],
    expect: (view) => expect(view.cluster.bindings.map((b) => b.enabled)).toEqual([true, true]),
  },
  { field: "the same policies in another order change nothing", spec: next({ policies: [{ policy: "affinity" }, { policy: "deletion" }] }), op: "same", calls: [] },
  {
    field: "a changed enabled is one policy_update",
    spec: next({ policies: [{ policy: "affinity", enabled: false }, { policy: "deletion" }] }),
    op: "update",
    calls: ["UpdateClusterPolicy"],
    expect: (view) => expect(view.cluster.bindings.map((b) => b.enabled).sort()).toEqual([false, true]),
  },
  {
    field: "a removed policy is one policy_detach",
    spec: next({ policies: [{ policy: "affinity", enabled: false }] }),
    op: "update",
    calls: ["DetachClusterPolicy"],
    expect: (view) => expect(view.cluster.bindings).toEqual([{ policy_id: expect.any(String), enabled: false }]),
  },
  {
    field: "a PATCH, a resize and a policy change together: in that order",
    spec: next({ name: "web-2", desiredCapacity: 2, policies: [] }),
    op: "update",
    calls: ["UpdateCluster", "ResizeCluster", "DetachClusterPolicy"],
  },
];

/**
 * Lanes: LANES independent clusters (program `senlin-lanes`, resources `lane<k>`, config keys
 * `test:lane<k>`). Lane k runs the k-th contiguous chunk of the rows, starting from the spec the
 * sequential table had just before the chunk's first row; round r applies row r of every lane's
 * chunk in one configure, one preview and one up. Senlin has no quota or unique name the lanes
 * could share: names are not unique (ownership is the metadata marker), policies may be attached to
 * any number of clusters, and actions only conflict on the same cluster.
 */
const LANES = 3;
const chunkSize = Math.ceil(rows.length / LANES);
const laneName = (lane: number) => `lane${lane}`;
/** The index of lane k's first row. */
const laneStart = (lane: number) => lane * chunkSize;
/** Lane k's spec before its first row: the base plus every earlier row's change (each row's spec is cumulative). */
const laneStartSpec = (lane: number): Spec => (laneStart(lane) === 0 ? base : rows[laneStart(lane) - 1].spec);
const roundCount = chunkSize;

/** One row as one `it`: which lane runs it in which round. */
interface Scheduled {
  field: string;
  row: Row;
  lane: number;
  round: number;
}

/** Every row in round order (round 0 of every lane, then round 1, ...). */
const schedule: Scheduled[] = [];
for (let round = 0; round < roundCount; round++) {
  for (let lane = 0; lane < LANES; lane++) {
    const index = laneStart(lane) + round;
    if (index < rows.length) schedule.push({ field: rows[index].field, row: rows[index], lane, round });
  }
}

/** What one round did. */
interface RoundRun {
  preview: RunResult;
  up: RunResult;
  /** The preview right after the up: it must find nothing to do. */
  after: RunResult;
  /** Audit entries of the up. */
  audit: AuditEntry[];
  clusters: SenlinClusterView[];
  actions: ActionView[];
  /**
   * Changes outside the lanes that have a row this round: steps of idle lanes (preview or the
   * preview after) and Senlin mutations on no active lane's cluster. Always empty when all is well.
   */
  stray: string[];
}

describe("senlin: each input field maps to Senlin's own operation", () => {
  let t: SenlinStack;
  /** Cluster ids by lane. */
  let ids: string[];
  const runs = new Map<number, Promise<RoundRun>>();

  beforeAll(async () => {
    t = await openSenlinStack({ program: "senlin-lanes", timeScale: 0.1 });
    await t.configure(Object.fromEntries(Array.from({ length: LANES }, (_, lane) => [laneName(lane), laneStartSpec(lane)])));
    ids = ((await t.stack.up()).outputs.ids as unknown[]).map(String);
    expect(ids).toHaveLength(LANES);
    expect(new Set(ids).size).toBe(LANES);
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  async function playRound(round: number): Promise<RoundRun> {
    const active = schedule.filter((s) => s.round === round);
    await t.configure(Object.fromEntries(active.map((s) => [laneName(s.lane), s.row.spec])));
    const preview = await t.stack.preview();
    const since = await t.plane.lastSeq();
    const up = await t.stack.up();
    const audit = await t.plane.audit(since);
    const clusters = await senlinClusters(t.plane);
    const { actions } = await t.plane.admin<{ actions: ActionView[] }>("/_local/senlin/actions");
    const after = await t.stack.preview();
    const activeNames = new Set(active.map((s) => laneName(s.lane)));
    const activeIds = new Set(active.map((s) => ids[s.lane]));
    const idleSteps = (label: string, result: RunResult) =>
      changingSteps(result)
        .filter((s) => !activeNames.has(s.name))
        .map((s) => `${label}: ${s.op} ${s.name}`);
    const stray = [
      ...idleSteps("preview", preview),
      ...idleSteps("preview after the up", after),
      ...senlinMutations(audit.filter((e) => !activeIds.has(e.target))).map((m) => `up: ${m}`),
    ];
    return { preview, up, after, audit, clusters, actions, stray };
  }

  /** The round's run: the first row of the round starts it, the others share it (and its failure). */
  const runRound = (round: number): Promise<RoundRun> => {
    let run = runs.get(round);
    if (!run) {
      run = playRound(round);
      runs.set(round, run);
    }
    return run;
  };

  it.each(schedule)("$field", async ({ row, lane, round }) => {
    const run = await runRound(round);
    const id = ids[lane];
    const name = laneName(lane);
    expect(changingSteps(run.preview).filter((s) => s.name === name).map((s) => s.op)).toEqual(row.op === "same" ? [] : [row.op]);
    expect(senlinMutations(run.audit.filter((e) => e.target === id))).toEqual(row.calls.map((c) => `${c} ${id}`));
    // The operations plan of the previewed change is exactly what the up did (issue 18).
    expectPlannedAsAudited(previewStep(run.preview.steps, name), run.audit.filter((e) => e.api === "senlin" && e.target === id));
    expect(run.stray).toEqual([]);
    expect((run.up.outputs.ids as unknown[])[lane]).toBe(id);
    const cluster = run.clusters.find((c) => c.id === id);
    expect(cluster, `lane ${lane}'s cluster ${id}`).toBeDefined();
    row.expect?.({ cluster: cluster as SenlinClusterView, actions: run.actions.filter((a) => a.target === id) });
    expect(changingSteps(run.after).filter((s) => s.name === name)).toEqual([]);
  });

  it("nothing is left to do after the last round", async () => {
    const last = await runRound(roundCount - 1);
    expect(changingSteps(last.after)).toEqual([]);
  });
});
