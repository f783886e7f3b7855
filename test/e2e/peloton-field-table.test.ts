import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps, type StepRecord } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { expectPlannedAsAudited, previewStep } from "../harness/planned";
import { pelotonMutations } from "./peloton-support";

/** Ids one lane has now. */
interface Ids {
  pool: string;
  other: string;
  upper: string;
  job: string;
}

/**
 * One row per input field: the change, the step kind preview must show for the resource (and no
 * other resource), and the exact mutating Peloton calls of the `up`, in order.
 */
interface Row {
  field: string;
  resource: "compute" | "web";
  /** The fields the row sets on its resource's spec, on top of every earlier row's changes. */
  change: Record<string, unknown>;
  op: "update" | "replace" | "same";
  calls: (before: Ids, after: Ids) => string[];
}

const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } };
const basePool = { resources: [{ kind: "cpu", reservation: 4, limit: 100 }] };
const baseJob = { instanceCount: 2, defaultSpec: { containers: [container] }, updatePolicy: { batchSize: 2 } };

const upd = (b: Ids) => [`UpdateResourcePool ${b.pool}`];
const replaceJob = (b: Ids) => [`ReplaceJob ${b.job}`];

const rows: Row[] = [
  { field: "ResourcePool.name renames in place", resource: "compute", change: { name: "compute-renamed" }, op: "update", calls: upd },
  {
    field: "ResourcePool.resources changes limits in place",
    resource: "compute",
    change: { resources: [{ kind: "cpu", reservation: 2, limit: 50, share: 2, type: "STATIC" }] },
    op: "update",
    calls: upd,
  },
  { field: "ResourcePool.policy is set in place", resource: "compute", change: { policy: "PRIORITY_FIFO" }, op: "update", calls: upd },
  { field: "ResourcePool.controllerLimit", resource: "compute", change: { controllerLimit: { maxPercent: 50 } }, op: "update", calls: upd },
  { field: "ResourcePool.slackLimit", resource: "compute", change: { slackLimit: { maxPercent: 30 } }, op: "update", calls: upd },
  { field: "ResourcePool.owningTeam", resource: "compute", change: { owningTeam: "compute-team" }, op: "update", calls: upd },
  { field: "ResourcePool.ldapGroups", resource: "compute", change: { ldapGroups: ["infra"] }, op: "update", calls: upd },
  { field: "ResourcePool.description", resource: "compute", change: { description: "web pool" }, op: "update", calls: upd },
  { field: "ResourcePool.timeouts changes nothing on the platform", resource: "compute", change: { timeouts: { delete: "2m" } }, op: "same", calls: () => [] },
  { field: "StatelessJob.name is one ReplaceJob", resource: "web", change: { name: "web-renamed" }, op: "update", calls: replaceJob },
  { field: "StatelessJob.instanceCount is one ReplaceJob", resource: "web", change: { instanceCount: 3 }, op: "update", calls: replaceJob },
  {
    field: "StatelessJob.defaultSpec is one ReplaceJob",
    resource: "web",
    change: { defaultSpec: { containers: [{ ...container, image: "nginx:1.28", environment: { MODE: "blue" } }] } },
    op: "update",
    calls: replaceJob,
  },
  {
    field: "StatelessJob.instanceSpec is one ReplaceJob",
    resource: "web",
    change: { instanceSpec: { "0": { containers: [{ ...container, image: "nginx:canary" }] } } },
    op: "update",
    calls: replaceJob,
  },
  { field: "StatelessJob.sla is one ReplaceJob", resource: "web", change: { sla: { priority: 2, maximumUnavailableInstances: 2 } }, op: "update", calls: replaceJob },
  { field: "StatelessJob.labels is one ReplaceJob", resource: "web", change: { labels: { tier: "front" } }, op: "update", calls: replaceJob },
  { field: "StatelessJob.owner is one ReplaceJob", resource: "web", change: { owner: "alice" }, op: "update", calls: replaceJob },
  { field: "StatelessJob.owningTeam is one ReplaceJob", resource: "web", change: { owningTeam: "web-team" }, op: "update", calls: replaceJob },
  { field: "StatelessJob.description is one ReplaceJob", resource: "web", change: { description: "frontend" }, op: "update", calls: replaceJob },
  { field: "StatelessJob.updatePolicy changes nothing on the platform", resource: "web", change: { updatePolicy: { batchSize: 1 } }, op: "same", calls: () => [] },
  { field: "StatelessJob.timeouts changes nothing on the platform", resource: "web", change: { timeouts: { update: "10m" } }, op: "same", calls: () => [] },
  { field: "StatelessJob.restartNonce is one RestartJob", resource: "web", change: { restartNonce: "1" }, op: "update", calls: (b) => [`RestartJob ${b.job}`] },
  { field: "StatelessJob.desiredState KILLED is StopJob", resource: "web", change: { desiredState: "KILLED" }, op: "update", calls: (b) => [`StopJob ${b.job}`] },
  { field: "StatelessJob.desiredState RUNNING is StartJob", resource: "web", change: { desiredState: "RUNNING" }, op: "update", calls: (b) => [`StartJob ${b.job}`] },
  {
    field: "StatelessJob.respoolId replaces: the job is stopped, deleted and created in the other pool",
    resource: "web",
    change: { pool: "other" },
    op: "replace",
    calls: (b, a) => [`StopJob ${b.job}`, `DeleteJob ${b.job}`, `CreateJob ${a.job}`],
  },
  {
    field: "ResourcePool.parent replaces the pool, deleting the old one first",
    resource: "compute",
    change: { parent: "upper" },
    op: "replace",
    calls: (b, a) => [`DeleteResourcePool ${b.pool}`, `CreateResourcePool ${a.pool}`],
  },
];

// Lanes: the program (programs/peloton-lanes) has LANES independent copies of the table's pools and
// job (compute-k, other-k, upper-k, web-k), each from its own entry of the config maps `pools` and
// `jobs`. The rows are split into LANES contiguous chunks; lane k starts from the specs the
// sequential table had just before its chunk's first row, and round r applies row r of every
// lane's chunk in one configure, one preview and one up. Each row asserts only its own lane, and
// every row also asserts that nothing outside the lanes of its round changed or was called.
// Peloton's only limit the lanes share is the root pool's children names (the root has no
// resource limits): explicit pool names get the lane as a suffix, as do job names. A lane's second
// pool and parent pool exist from its start, as in the sequential table.
const LANES = 3;

/** The specs of one lane's pool and job. */
interface Specs {
  pool: Record<string, unknown>;
  job: Record<string, unknown>;
}

const applyRow = (s: Specs, row: Row): Specs =>
  row.resource === "compute" ? { ...s, pool: { ...s.pool, ...row.change } } : { ...s, job: { ...s.job, ...row.change } };

/** The first row index of each lane's chunk (the larger chunks first), and the end. */
const chunkStarts = Array.from({ length: LANES + 1 }, (_, k) => k * Math.floor(rows.length / LANES) + Math.min(k, rows.length % LANES));

/** Round r: the row of each lane that has one. */
const rounds: { lane: number; index: number }[][] = Array.from({ length: chunkStarts[1] - chunkStarts[0] }, (_, r) =>
  Array.from({ length: LANES }, (_, lane) => ({ lane, index: chunkStarts[lane] + r })).filter(({ lane, index }) => index < chunkStarts[lane + 1]),
);

/** The rows in round order, as the `it`s run. */
const cases = rounds.flatMap((entries, round) => entries.map(({ lane, index }) => ({ field: rows[index].field, lane, index, round })));

/** A name the lane owns alone: names are unique among a pool's children. */
const laneName = (spec: Record<string, unknown>, lane: number) => (typeof spec.name === "string" ? { ...spec, name: `${spec.name}-${lane}` } : spec);

/** The specs lane k goes through: from its start to the end of its chunk. */
const laneSpecs = (k: number): Specs[] => {
  const all: Specs[] = [{ pool: basePool, job: baseJob }];
  for (const row of rows.slice(0, chunkStarts[k + 1])) all.push(applyRow(all[all.length - 1], row));
  return all.slice(chunkStarts[k]);
};
const lanesWhere = (test: (s: Specs) => boolean) => [...Array(LANES).keys()].filter((k) => laneSpecs(k).some(test));
// The table's second pool and parent pool, in the lanes whose rows use them (each pool the engine
// manages costs CPU in every preview and up).
const withOtherPool = lanesWhere((s) => s.job.pool === "other");
const withUpperPool = lanesWhere((s) => s.pool.parent === "upper");

/** The config of every lane's specs, in one `configure`. */
const laneConfig = (specs: Specs[]) => ({
  lanes: LANES,
  withOtherPool,
  withUpperPool,
  pools: Object.fromEntries(specs.map((s, k) => [k, laneName(s.pool, k)])),
  jobs: Object.fromEntries(specs.map((s, k) => [k, laneName(s.job, k)])),
});

/** The lane of a resource named `<base>-<lane>`; -1 for any other. */
const laneOf = (name: string): number => {
  const m = /^(?:compute|other|upper|web)-(\d+)$/.exec(name);
  return m ? Number(m[1]) : -1;
};

function stepsOf(steps: StepRecord[]): string[] {
  const changing = changingSteps({ steps, outputs: {}, stdout: "" });
  // A replacement shows as create-replacement + replace + delete-replaced: report it as one replace.
  const names = [...new Set(changing.map((s) => s.name))];
  return names.map((n) => {
    const mine = changing.filter((s) => s.name === n);
    return `${mine.some((s) => s.op === "replace") ? "replace" : mine[0].op} ${n}`;
  });
}

/** The ids of every lane, from the outputs of an `up`. */
function idsOf(outputs: Record<string, unknown>): Ids[] {
  const lanes = outputs.lanes as Record<string, Record<string, string>>;
  return Array.from({ length: LANES }, (_, k) => {
    const o = lanes[k];
    return { pool: String(o.poolId), other: String(o.otherPoolId), upper: String(o.upperPoolId), job: String(o.jobId) };
  });
}

/** What one round did. */
interface RoundResult {
  before: Ids[];
  after: Ids[];
  steps: StepRecord[];
  audit: AuditEntry[];
}

describe("Peloton: each input field maps to the platform's own operation", () => {
  let t: TestStack;
  let ids: Ids[];
  // Lane k starts with the base specs plus the changes of every row before its chunk.
  const specs: Specs[] = chunkStarts.slice(0, LANES).map((start) => rows.slice(0, start).reduce(applyRow, { pool: basePool, job: baseJob }));
  const runs = new Map<number, Promise<RoundResult>>();

  const runRound = async (round: number): Promise<RoundResult> => {
    for (const { lane, index } of rounds[round]) specs[lane] = applyRow(specs[lane], rows[index]);
    await t.configure(laneConfig(specs));
    const preview = await t.stack.preview();
    const since = await t.plane.lastSeq();
    const up = await t.stack.up();
    const before = ids;
    ids = idsOf(up.outputs);
    return { before, after: ids, steps: preview.steps, audit: await t.plane.audit(since) };
  };
  /** The round's result: its first `it` runs it, the others of the round share the result (or the error). */
  const roundResult = (round: number): Promise<RoundResult> => {
    let run = runs.get(round);
    if (!run) {
      run = runRound(round);
      runs.set(round, run);
    }
    return run;
  };

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton-lanes", workspace: "peloton-field-table", timeScale: 0.05 });
    await t.configure(laneConfig(specs));
    ids = idsOf((await t.stack.up()).outputs);
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  it.each(cases)("$field", async ({ lane, index, round }) => {
    const row = rows[index];
    const result = await roundResult(round);
    const active = rounds[round].map((e) => e.lane);
    // Only this resource of the lane changes: the previous round's up left nothing pending.
    expect(stepsOf(result.steps.filter((s) => laneOf(s.name) === lane))).toEqual(row.op === "same" ? [] : [`${row.op} ${row.resource}-${lane}`]);
    // Nothing outside the lanes of this round changes.
    expect(stepsOf(result.steps.filter((s) => !active.includes(laneOf(s.name))))).toEqual([]);

    const targets = (k: number) => new Set([...Object.values(result.before[k]), ...Object.values(result.after[k])].filter((id) => id !== ""));
    const mine = targets(lane);
    expect(pelotonMutations(result.audit.filter((e) => mine.has(e.target)))).toEqual(row.calls(result.before[lane], result.after[lane]));
    // The operations plan of the previewed change is exactly what the up did (issue 18).
    expectPlannedAsAudited(previewStep(result.steps, `${row.resource}-${lane}`), result.audit.filter((e) => e.api === "peloton" && mine.has(e.target)));
    // Every mutating call of the up belongs to a lane of this round.
    const ours = active.map(targets);
    expect(pelotonMutations(result.audit.filter((e) => !ours.some((s) => s.has(e.target))))).toEqual([]);
  });

  it("ends with nothing to do", async () => {
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });
});
