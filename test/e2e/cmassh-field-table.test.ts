import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps, type RunResult, type StepRecord } from "../harness/engine";
import { type AuditEntry, type CmasshClusterView, mutations } from "../harness/local-plane";
import { expectPlannedAsAudited } from "../harness/planned";

/** Names a lane has now: its `main` and `other` clusters, its pool `p`. */
interface Names {
  main: string;
  other: string;
  pool: string;
}

type Spec = Record<string, unknown>;

/**
 * One row per input field: the change, the step kind preview must show for the resource, and the
 * exact mutating API calls (GetCluster polls left out) the `up` must make, in order. A change or
 * call naming a cluster the user chooses takes the lane, since cluster names are unique on the
 * platform (see {@link explicitName}).
 */
interface Row {
  field: string;
  resource: "main" | "p";
  change: Spec | ((lane: number) => Spec);
  op: "update" | "replace" | "same";
  calls: (before: Names, after: Names, lane: number) => string[];
}

const base: Spec = {
  withOther: true,
  version: "1.30.10",
  controlPlane: { instanceType: "standard", count: 1 },
  pools: { p: { count: 2, instanceType: "standard" } },
};

const pool = (spec: Spec) => ({ pools: { p: { count: 5, instanceType: "standard", ...spec } } });

/** The user-chosen name of lane k's main cluster (`main-explicit` in a single-lane table). */
const explicitName = (lane: number): string => `main-explicit-${lane}`;

const rows: Row[] = [
  {
    field: "NodePool.count (2 -> 5) scales in place",
    resource: "p",
    change: pool({}),
    op: "update",
    calls: (b) => [`ScaleNodePool ${b.main}/${b.pool}`],
  },
  {
    field: "NodePool.timeouts changes nothing on the platform",
    resource: "p",
    change: pool({ timeouts: { create: "15m" } }),
    op: "same",
    calls: () => [],
  },
  {
    field: "NodePool.instanceType replaces, deleting the old pool before adding the new (the default order)",
    resource: "p",
    change: pool({ instanceType: "gpu" }),
    op: "replace",
    calls: (b, a) => [`DeleteNodePool ${b.main}/${b.pool}`, `AddNodePool ${a.main}/${a.pool}`],
  },
  {
    field: "NodePool.labels with deleteBeforeReplace: false replaces, adding the new pool first (the derived name changes)",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, deleteBeforeReplace: false }),
    op: "replace",
    calls: (b, a) => [`AddNodePool ${a.main}/${a.pool}`, `DeleteNodePool ${b.main}/${b.pool}`],
  },
  {
    field: "NodePool.name replaces, deleting first",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool" }),
    op: "replace",
    calls: (b, a) => [`DeleteNodePool ${b.main}/${b.pool}`, `AddNodePool ${a.main}/batch-pool`],
  },
  {
    field: "NodePool.clusterName replaces: the pool moves to the other cluster",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool", cluster: "other" }),
    op: "replace",
    calls: (b) => [`DeleteNodePool ${b.main}/batch-pool`, `AddNodePool ${b.other}/batch-pool`],
  },
  {
    field: "Cluster.kubernetesVersion upgrades in place",
    resource: "main",
    change: { version: "1.31.6" },
    op: "update",
    calls: (b) => [`GetUpgradeClusterInformation ${b.main}`, `UpgradeCluster ${b.main}`],
  },
  {
    field: "Cluster.timeouts changes nothing on the platform",
    resource: "main",
    change: { clusterTimeouts: { update: "1h" } },
    op: "same",
    calls: () => [],
  },
  {
    field: "Cluster.controlPlane.count replaces, deleting the old cluster first",
    resource: "main",
    change: { controlPlane: { instanceType: "standard", count: 3 } },
    op: "replace",
    calls: (b, a) => [`DeleteCluster ${b.main}`, `CreateCluster ${a.main}`],
  },
  {
    field: "Cluster.controlPlane.instanceType replaces",
    resource: "main",
    change: { controlPlane: { instanceType: "gpu", count: 3 } },
    op: "replace",
    calls: (b, a) => [`DeleteCluster ${b.main}`, `CreateCluster ${a.main}`],
  },
  {
    field: "Cluster.controlPlane.labels with deleteBeforeReplace: false replaces, creating the new cluster first",
    resource: "main",
    change: { controlPlane: { instanceType: "gpu", count: 3, labels: { team: "ml" } }, clusterDeleteBeforeReplace: false },
    op: "replace",
    calls: (b, a) => [`CreateCluster ${a.main}`, `DeleteCluster ${b.main}`],
  },
  {
    field: "Cluster.name replaces, deleting first",
    resource: "main",
    change: (lane) => ({ clusterName: explicitName(lane), clusterDeleteBeforeReplace: undefined }),
    op: "replace",
    calls: (b, _a, lane) => [`DeleteCluster ${b.main}`, `CreateCluster ${explicitName(lane)}`],
  },
  {
    field: "Cluster.controlPlane with a user-chosen name replaces, deleting first",
    resource: "main",
    change: { controlPlane: { instanceType: "standard", count: 1 } },
    op: "replace",
    calls: (_b, _a, lane) => [`DeleteCluster ${explicitName(lane)}`, `CreateCluster ${explicitName(lane)}`],
  },
];

function stepOf(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = changingSteps({ steps, outputs: {}, stdout: "" }).filter((s) => s.name === name);
  // A replacement shows as create-replacement + replace + delete-replaced; report it as one replace.
  if (mine.some((s) => s.op === "replace")) return mine.find((s) => s.op === "replace");
  return mine[0];
}

/**
 * Lanes: the program (programs/cmassh-lanes) holds LANES independent copies of the table's
 * resources; lane k's spec is the config key `test:lane<k>` (the cmassh program's keys as one JSON
 * object) and its resources are `main-<k>`, `other-<k>` and `p-<k>`. The rows are split into LANES
 * contiguous chunks; lane k starts from the spec the sequential table had just before its chunk's
 * first row, and round r applies row r of every lane's chunk in one configure, one preview and one
 * up. cma-ssh has no quota or capacity the lanes could share: cluster names are unique on the
 * platform (derived names differ by resource name, the user-chosen one by {@link explicitName}),
 * pool names only within their cluster, and operations only conflict on the same cluster.
 */
const LANES = 3;
const chunkSize = Math.ceil(rows.length / LANES);
const roundCount = chunkSize;
const laneName = (lane: number) => `lane${lane}`;
/** The index of lane k's first row. */
const laneStart = (lane: number) => lane * chunkSize;
/** The resources of lane k, by their logical names. */
const laneResources = (lane: number): string[] => ["main", "other", "p"].map((r) => `${r}-${lane}`);

const changeOf = (row: Row, lane: number): Spec => (typeof row.change === "function" ? row.change(lane) : row.change);

/** The lane's spec after the first `count` rows: each change replaces its keys, `undefined` removes one. */
function specAfter(lane: number, count: number): Spec {
  const spec: Spec = { ...base };
  for (const row of rows.slice(0, count)) {
    for (const [key, value] of Object.entries(changeOf(row, lane))) {
      if (value === undefined) delete spec[key];
      else spec[key] = value;
    }
  }
  return spec;
}

/** One row as one `it`: which lane runs it in which round. */
interface Scheduled {
  field: string;
  row: Row;
  index: number;
  lane: number;
  round: number;
}

/** Every row in round order (round 0 of every lane, then round 1, ...). */
const schedule: Scheduled[] = [];
for (let round = 0; round < roundCount; round++) {
  for (let lane = 0; lane < LANES; lane++) {
    const index = laneStart(lane) + round;
    if (index < rows.length) schedule.push({ field: rows[index].field, row: rows[index], index, lane, round });
  }
}

/** The cluster an audit entry is about: every cma-ssh call names it first in its target. */
const clusterOfEntry = (entry: AuditEntry): string => entry.target.split("/")[0];

/** What one round did. */
interface RoundRun {
  preview: RunResult;
  up: RunResult;
  /** The preview right after the up: it must find nothing to do. */
  after: RunResult;
  /** Audit entries of the up. */
  audit: AuditEntry[];
  /** Each lane's names before and after the round. */
  before: Names[];
  names: Names[];
  /** Every lane's clusters (before or after the round) by lane. */
  clusters: Set<string>[];
  /**
   * Changes outside the lanes that have a row this round: steps of idle lanes (preview or the
   * preview after) and cma-ssh mutations on no active lane's cluster. Always empty when all is well.
   */
  stray: string[];
}

describe("cma-ssh: each input field maps to the platform's own operation", () => {
  let t: CmasshStack;
  /** Each lane's names now. */
  let names: Names[];
  const runs = new Map<number, Promise<RoundRun>>();

  /** Each lane's names from the outputs of an up and the plane's clusters. */
  const readNames = (up: RunResult, clusters: CmasshClusterView[]): Names[] => {
    const lanes = up.outputs.lanes as { clusterName: string; poolNames: Record<string, string> }[];
    return lanes.map((out, lane) => {
      const main = String(out.clusterName);
      return {
        main,
        other: clusters.map((c) => c.name).find((n) => n !== main && n.startsWith(`other-${lane}-`)) ?? "",
        pool: out.poolNames.p,
      };
    });
  };

  beforeAll(async () => {
    // The stack is opened with every lane's starting spec: one CLI call with the plane's own config.
    const starts = Array.from({ length: LANES }, (_, lane) => [`test:${laneName(lane)}`, JSON.stringify(specAfter(lane, laneStart(lane)))]);
    t = await openCmasshStack({ program: "cmassh-lanes", timeScale: 0.1, config: Object.fromEntries(starts) });
    names = readNames(await t.stack.up(), await t.plane.cmasshClusters());
    expect(names).toHaveLength(LANES);
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  async function playRound(round: number): Promise<RoundRun> {
    const active = schedule.filter((s) => s.round === round);
    await t.configure(Object.fromEntries(active.map((s) => [laneName(s.lane), specAfter(s.lane, s.index + 1)])));
    const preview = await t.stack.preview();
    const since = await t.plane.lastSeq();
    const before = names;
    const up = await t.stack.up();
    const audit = await t.plane.audit(since);
    names = readNames(up, await t.plane.cmasshClusters());
    const after = await t.stack.preview();
    const clusters = before.map((b, lane) => new Set([b.main, b.other, names[lane].main, names[lane].other, explicitName(lane)].filter((n) => n !== "")));
    const activeResources = new Set(active.flatMap((s) => laneResources(s.lane)));
    const activeClusters = new Set(active.flatMap((s) => [...clusters[s.lane]]));
    const idleSteps = (label: string, result: RunResult) =>
      changingSteps(result)
        .filter((s) => !activeResources.has(s.name))
        .map((s) => `${label}: ${s.op} ${s.name}`);
    const stray = [
      ...idleSteps("preview", preview),
      ...idleSteps("preview after the up", after),
      ...mutations(audit.filter((e) => !activeClusters.has(clusterOfEntry(e)))).map((m) => `up: ${m}`),
    ];
    return { preview, up, after, audit, before, names, clusters, stray };
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
    const resource = `${row.resource}-${lane}`;
    const step = stepOf(run.preview.steps, resource);
    expect(step?.op ?? "same").toBe(row.op);
    const laneSteps = (result: RunResult) => changingSteps(result).filter((s) => laneResources(lane).includes(s.name));
    expect(laneSteps(run.preview).filter((s) => s.name !== resource)).toEqual([]);
    expect(run.stray).toEqual([]);

    const mine = run.audit.filter((e) => run.clusters[lane].has(clusterOfEntry(e)));
    expect(mutations(mine)).toEqual(row.calls(run.before[lane], run.names[lane], lane));
    // The operations plan of the previewed change is exactly what the up did (issue 18).
    expectPlannedAsAudited(step, mine);
    expect(laneSteps(run.after)).toEqual([]);
  });

  it("nothing is left to do after the last round", async () => {
    const last = await runRound(roundCount - 1);
    expect(changingSteps(last.after)).toEqual([]);
  });
});
