import { afterAll, beforeAll, expect } from "vitest";
import { type AllKindsStack, compareWithState, KINDS, type Kind, type KindComparison, kindOf, openAllKindsStack } from "../harness/all-kinds";
import { acceptedCalls, type Holds, holdCalls, type Interruption, killRun, watchRun } from "../harness/interrupt";
import { matrixScenario } from "../harness/matrix";
import type { AuditEntry } from "../harness/local-plane";
import { pelotonJobs } from "./peloton-support";

// One stack of every kind lives through the whole file, like a story: created under two kills,
// updated under two kills, destroyed under two kills, then created again while the local control
// plane restarts twice. Each interruption lands while a group of kinds has its operation in flight:
// children wait for their parents, so parents (and the kinds without children, which the engine
// schedules with them) go first on create and update, and last on delete.
const PARENTS: readonly Kind[] = ["cmassh:Cluster", "peloton:ResourcePool", "vcluster:VCluster", "senlin:Profile", "senlin:Policy", "cyclecloud:NodePool"];
const CHILDREN: readonly Kind[] = ["cmassh:NodePool", "peloton:StatelessJob", "vcluster:Snapshot", "senlin:Cluster"];

/** How long the plane sits on a held call: far longer than the kill takes to land. */
const HOLD_MS = 8000;

/** What one row's kills and converging run left. */
interface RowOutcome {
  /** The kills (by label) at which each kind's operation was in flight. */
  inFlightAt: Record<Kind, string[]>;
  /** What each kill found pending and accepted, for failure messages. */
  kills: string[];
  comparison: Record<Kind, KindComparison>;
  /** Objects each kind's provider created on the platform during the row. */
  created: Record<Kind, number>;
  /** Each kind's accepted delete calls of the row. */
  deleted: Record<Kind, number>;
  /** Each kind's accepted create calls of the row, as `<seq> <operation> <target>`, for failure messages. */
  calls: Record<Kind, string[]>;
  /** Each kind's resources' outputs in the state after the row. */
  outputs: Record<Kind, Record<string, unknown>[]>;
}

let t: AllKindsStack;

beforeAll(async () => {
  t = await openAllKindsStack({ timeScale: 2 });
});

afterAll(async () => {
  await t?.plane.stop();
});

/** CycleCloud node ids created by the plane's create operations (a pool's objects are nodes). */
async function ccCreatedNodes(): Promise<Set<string>> {
  const { operations } = await t.plane.admin<{ operations: { action: string; nodeIds: string[] }[] }>("/_local/cyclecloud/operations");
  return new Set(operations.filter((o) => o.action === "create").flatMap((o) => o.nodeIds));
}

/**
 * Runs the kills of one row, then `converge`, and gathers what each kind's test asserts: which kill
 * found it in flight, the plane against the state, how many objects its provider created.
 */
async function runRow(kills: { label: string; run: () => Promise<Interruption> }[], converge: () => Promise<unknown>): Promise<RowOutcome> {
  const since = await t.plane.lastSeq();
  const ccBefore = await ccCreatedNodes();
  const inFlightAt = Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<Kind, string[]>;
  const seen: string[] = [];
  for (const kill of kills) {
    const result = await kill.run();
    for (const k of result.inFlight) inFlightAt[k].push(kill.label);
    seen.push(`${kill.label}: pending ${[...result.pending].join(", ") || "none"}; accepted ${[...result.accepted].join(", ") || "none"}`);
  }
  await converge();
  const audit = await t.plane.audit(since);
  const ccNew = [...(await ccCreatedNodes())].filter((id) => !ccBefore.has(id));
  const created = objectsCreated(audit, ccNew.length);
  const deleted = Object.fromEntries(KINDS.map((k) => [k, acceptedCalls(audit, k, "delete").length])) as Record<Kind, number>;
  const resources = ((await t.stack.exportState()).deployment.resources ?? []) as { type: string; outputs?: Record<string, unknown> }[];
  const outputs = Object.fromEntries(KINDS.map((k) => [k, resources.filter((r) => kindOf(r.type) === k).map((r) => r.outputs ?? {})])) as RowOutcome["outputs"];
  return { inFlightAt, kills: seen, comparison: await compareWithState(t.plane, t.stack), created, deleted, outputs, calls: callsOf(audit) };
}

/**
 * Kinds each of whose accepted create calls makes a new object: a snapshot's create targets its
 * vcluster, and Senlin profile and policy names need not be unique.
 */
const ONE_OBJECT_PER_CALL: ReadonlySet<Kind> = new Set(["vcluster:Snapshot", "senlin:Profile", "senlin:Policy"]);

/**
 * Objects each kind's provider created, from the accepted create calls of a row: the other kinds'
 * names are unique on their platforms, so a second object under a name could only follow a delete,
 * and a create sent again with the same request id (vcluster) is answered from the first without
 * creating anything: distinct targets count. For {@link ONE_OBJECT_PER_CALL} every accepted call
 * counts; a CycleCloud pool's objects are the nodes the plane's create operations made.
 */
function objectsCreated(audit: AuditEntry[], ccNodes: number): Record<Kind, number> {
  const count = (k: Kind) => {
    if (k === "cyclecloud:NodePool") return ccNodes;
    const calls = acceptedCalls(audit, k, "create");
    return ONE_OBJECT_PER_CALL.has(k) ? calls.length : new Set(calls.map((e) => e.target)).size;
  };
  return Object.fromEntries(KINDS.map((k) => [k, count(k)])) as Record<Kind, number>;
}

/** Each kind's accepted create calls among audit entries, as `<seq> <operation> <target>`. */
function callsOf(audit: AuditEntry[]): Record<Kind, string[]> {
  return Object.fromEntries(KINDS.map((k) => [k, acceptedCalls(audit, k, "create").map((e) => `${e.seq} ${e.operation} ${e.target}`)])) as Record<Kind, string[]>;
}

/** The plane holds exactly what the state names for the kind: no orphan, no missing object, no duplicate. */
function expectInventoryEqual(c: KindComparison, objects: number): void {
  expect({ orphans: c.orphans, missing: c.missing, duplicates: c.duplicates }).toEqual({ orphans: [], missing: [], duplicates: [] });
  expect(c.plane).toHaveLength(objects);
}

/** Objects of each kind the program holds after a round (a CycleCloud pool's objects are its nodes). */
const objectsAfter = (round: 0 | 1, kind: Kind) => (kind === "cyclecloud:NodePool" ? round + 1 : 1);

matrixScenario(
  "SIGKILL of the engine during create",
  () =>
    runRow(
      [
        {
          label: "parents' creates",
          run: async () => {
            const held: Holds = { "peloton:ResourcePool": "CreateResourcePool", "senlin:Profile": "CreateProfile", "senlin:Policy": "CreatePolicy" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "up", { phase: "create", kinds: PARENTS, held });
          },
        },
        {
          label: "children's creates",
          run: async () => {
            const held: Holds = { "vcluster:Snapshot": "SnapshotVCluster" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "up", { phase: "create", kinds: CHILDREN, held });
          },
        },
      ],
      () => t.stack.up(),
    ),
  (row, kind) => {
    expect(row.inFlightAt[kind], `${kind}: its create was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
    expectInventoryEqual(row.comparison[kind], objectsAfter(0, kind));
    // The rerun adopted what the killed runs created: one object created per object held.
    expect(row.created[kind], row.calls[kind].join("; ")).toBe(objectsAfter(0, kind));
    expect(row.deleted[kind]).toBe(0);
  },
);

/** The in-place field round 1 changes, per kind, as the resource's outputs show it, and its round-1 value. */
const ROUND_ONE: Record<Kind, [(o: Record<string, unknown>) => unknown, unknown]> = {
  "cmassh:Cluster": [(o) => o.kubernetesVersion, "1.31.6"],
  "cmassh:NodePool": [(o) => o.count, 2],
  "peloton:ResourcePool": [(o) => (o.resources as { kind: string; limit: number }[]).find((r) => r.kind === "cpu")?.limit, 120],
  "peloton:StatelessJob": [(o) => (o.defaultSpec as { containers: { image: string }[] }).containers[0].image, "nginx:1.28"],
  "vcluster:VCluster": [(o) => o.replicas, 2],
  "vcluster:Snapshot": [(o) => o.description, "round 1"],
  "senlin:Cluster": [(o) => o.desiredCapacity, 2],
  "senlin:Profile": [(o) => (o.metadata as Record<string, string> | undefined)?.round, "r1"],
  // The policy's name is `deletion-r<round>-<stack>`.
  "senlin:Policy": [(o) => String(o.name).split("-")[1], "r1"],
  "cyclecloud:NodePool": [(o) => o.count, 2],
};

/** A rolling update of the job half done: the new workflow rolls forward with some instances updated, not all. */
async function rolloutHalfDone(): Promise<boolean> {
  const [job] = await pelotonJobs(t.plane);
  const wf = job?.workflow;
  return wf?.state === "ROLLING_FORWARD" && wf.done.length >= 1 && wf.done.length < job.pods.length;
}

matrixScenario(
  "SIGKILL of the engine during update (Peloton: mid rolling update)",
  () =>
    runRow(
      [
        {
          label: "parents' updates",
          run: async () => {
            await t.configure({ round: 1 });
            const held: Holds = { "peloton:ResourcePool": "UpdateResourcePool", "senlin:Profile": "UpdateProfile", "senlin:Policy": "UpdatePolicy" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "up", { phase: "update", kinds: PARENTS, held });
          },
        },
        {
          label: "children's updates, the rollout half done",
          run: async () => {
            const held: Holds = { "cmassh:NodePool": "ScaleNodePool", "vcluster:Snapshot": "SnapshotVCluster" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "up", { phase: "update", kinds: CHILDREN, held, also: rolloutHalfDone });
          },
        },
      ],
      () => t.stack.up(),
    ),
  (row, kind) => {
    expect(row.inFlightAt[kind], `${kind}: its update was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
    const [field, value] = ROUND_ONE[kind];
    expect(row.outputs[kind].map(field)).toEqual([value]);
    expectInventoryEqual(row.comparison[kind], objectsAfter(1, kind));
    // Only the snapshot's replacement and the CycleCloud pool's new node are new objects.
    expect(row.created[kind], row.calls[kind].join("; ")).toBe(kind === "vcluster:Snapshot" || kind === "cyclecloud:NodePool" ? 1 : 0);
    // Only the replaced snapshot is deleted.
    expect(row.deleted[kind]).toBe(kind === "vcluster:Snapshot" ? 1 : 0);
  },
);

matrixScenario(
  "SIGKILL of the engine during delete",
  () =>
    runRow(
      [
        {
          label: "children's deletes",
          run: async () => {
            const held: Holds = { "cmassh:NodePool": "DeleteNodePool", "peloton:StatelessJob": "DeleteJob", "vcluster:Snapshot": "DeleteSnapshot" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "destroy", { phase: "delete", kinds: CHILDREN, held });
          },
        },
        {
          label: "parents' deletes",
          run: async () => {
            const held: Holds = { "peloton:ResourcePool": "DeleteResourcePool", "senlin:Profile": "DeleteProfile", "senlin:Policy": "DeletePolicy" };
            await holdCalls(t, held, HOLD_MS);
            return killRun(t, "destroy", { phase: "delete", kinds: PARENTS, held });
          },
        },
      ],
      () => t.stack.destroy(),
    ),
  (row, kind) => {
    expect(row.inFlightAt[kind], `${kind}: its delete was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
    const c = row.comparison[kind];
    expect({ plane: c.plane, state: c.state }).toEqual({ plane: [], state: [] });
    expect(row.outputs[kind]).toEqual([]);
  },
);

/** What the row restarting the plane left. */
interface RestartOutcome {
  /** The restarts (by label) at which each kind's create was in flight. */
  inFlightAt: Record<Kind, string[]>;
  /** The interrupted run's error text, when it failed rather than completed. */
  failure?: string;
  comparison: Record<Kind, KindComparison>;
  created: Record<Kind, number>;
  deleted: Record<Kind, number>;
  calls: Record<Kind, string[]>;
}

/**
 * `up` of every kind from nothing while the plane restarts twice: once with the parents' creates in
 * flight, once with the children's. The run completes or fails cleanly; then one more `up` runs.
 */
async function upRestartingThePlane(): Promise<RestartOutcome> {
  const since = await t.plane.lastSeq();
  const ccBefore = await ccCreatedNodes();
  const watch = await watchRun(t);
  let running = true;
  const restarts: { label: string; kinds: readonly Kind[]; held: Holds }[] = [
    { label: "parents' creates", kinds: PARENTS, held: { "peloton:ResourcePool": "CreateResourcePool", "senlin:Profile": "CreateProfile", "senlin:Policy": "CreatePolicy" } },
    { label: "children's creates", kinds: CHILDREN, held: { "vcluster:Snapshot": "SnapshotVCluster" } },
  ];
  await holdCalls(t, restarts[0].held, HOLD_MS);
  const up = t.stack.up().finally(() => {
    running = false;
  });
  up.catch(() => undefined);
  const inFlightAt = Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<Kind, string[]>;
  for (const [i, r] of restarts.entries()) {
    // Faults do not survive a restart: the next hold is set once the previous restart is over.
    if (i > 0) await holdCalls(t, r.held, HOLD_MS);
    await watch.whenInFlight({ phase: "create", kinds: r.kinds, held: r.held }, () => running);
    const pending = watch.pending();
    await t.plane.restart();
    for (const k of r.kinds) if (pending.has(k)) inFlightAt[k].push(r.label);
  }
  const failure = await up.then(
    () => undefined,
    (err: Error) => err.message,
  );
  await t.stack.up();
  const audit = await t.plane.audit(since);
  const ccNew = [...(await ccCreatedNodes())].filter((id) => !ccBefore.has(id));
  const created = objectsCreated(audit, ccNew.length);
  const deleted = Object.fromEntries(KINDS.map((k) => [k, acceptedCalls(audit, k, "delete").length])) as Record<Kind, number>;
  return { inFlightAt, failure, comparison: await compareWithState(t.plane, t.stack), created, deleted, calls: callsOf(audit) };
}

matrixScenario("local control plane restarted during create", upRestartingThePlane, (row, kind) => {
  expect(row.inFlightAt[kind], `${kind}: its create was in flight at a restart`).not.toEqual([]);
  // Completed, or failed cleanly: the engine's report naming an operation, its object and the
  // platform's code (a call cut by the restart that is not safe to resend), no provider host crash.
  if (row.failure !== undefined) {
    expect(row.failure).toMatch(/[A-Z]\w+ \w+ "[^"]+": [A-Z_]+: /);
    expect(row.failure).not.toMatch(/\n\s+at .*\.js:\d+/);
  }
  expectInventoryEqual(row.comparison[kind], objectsAfter(1, kind));
  expect(row.created[kind], `${row.calls[kind].join("; ")}; first run: ${row.failure ?? "completed"}`).toBe(objectsAfter(1, kind));
  expect(row.deleted[kind]).toBe(0);
});
