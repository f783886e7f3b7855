import { expect } from "vitest";
import { pelotonJobs, pelotonMutations } from "../e2e/peloton-support";
import { compareWithState, KINDS, type Kind, type KindComparison, kindOf, type StateSource } from "./all-kinds";
import { acceptedCalls, type Holds, holdCalls, type Interruption, killRun, type Phase, startWatched } from "./interrupt";
import type { AuditEntry, LocalPlane } from "./local-plane";
import { matrixScenario } from "./matrix";
import type { Engine, EngineFailure, MatrixStack, PlannedChange } from "./matrix-stack";
import { senlinClusters } from "./senlin-stack";

// The rows that interrupt the engine: one stack of every kind created under two kills, updated
// and destroyed under a kill for each group of kinds in flight together, then created again while
// the local control plane restarts twice. Children wait for their parents, so parents (and the
// CycleCloud pool, which has neither) go first on create and update; on delete the children and
// the CycleCloud pool go first, the parents last.
const PARENTS: readonly Kind[] = ["cmassh:Cluster", "peloton:ResourcePool", "vcluster:VCluster", "senlin:Profile", "senlin:Policy", "cyclecloud:NodePool"];
const CHILDREN: readonly Kind[] = ["cmassh:NodePool", "peloton:StatelessJob", "vcluster:Snapshot", "senlin:Cluster"];
/** The parents but the CycleCloud pool, which has no children. */
const PARENTS_OF_CHILDREN: readonly Kind[] = PARENTS.filter((k) => k !== "cyclecloud:NodePool");

/** How long the plane sits on a held call: far longer than the kill takes to land. */
const HOLD_MS = 8000;

/** The time scale of the kill rows' plane: long enough operations that every parent's is in flight at once. */
export const KILL_TIME_SCALE = 2;

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
  /** The audit entries of the row. */
  audit: AuditEntry[];
  /** The policies each Senlin cluster on the plane is bound to, after the row. */
  bindings: string[][];
  /** What a preview plans after the row, when the row asks for one. */
  planned?: PlannedChange[];
}

const byKind = <T>(value: (k: Kind) => T) => Object.fromEntries(KINDS.map((k) => [k, value(k)])) as Record<Kind, T>;

/** CycleCloud node ids created by the plane's create operations (a pool's objects are nodes). */
export async function ccCreatedNodes(plane: LocalPlane): Promise<Set<string>> {
  const { operations } = await plane.admin<{ operations: { action: string; nodeIds: string[] }[] }>("/_local/cyclecloud/operations");
  return new Set(operations.filter((o) => o.action === "create").flatMap((o) => o.nodeIds));
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
  return byKind((k) => {
    if (k === "cyclecloud:NodePool") return ccNodes;
    const calls = acceptedCalls(audit, k, "create");
    return ONE_OBJECT_PER_CALL.has(k) ? calls.length : new Set(calls.map((e) => e.target)).size;
  });
}

/**
 * What a row's audit and the plane say it did since audit entry `since`, per kind: objects created,
 * deletes, create calls, and how the plane compares with the state. `ccBefore`: {@link ccCreatedNodes} before the row.
 */
export async function rowEffects(plane: LocalPlane, state: StateSource, since: number, ccBefore: Set<string>) {
  const audit = await plane.audit(since);
  const ccNew = [...(await ccCreatedNodes(plane))].filter((id) => !ccBefore.has(id));
  return {
    audit,
    created: objectsCreated(audit, ccNew.length),
    deleted: byKind((k) => acceptedCalls(audit, k, "delete").length),
    calls: byKind((k) => acceptedCalls(audit, k, "create").map((e) => `${e.seq} ${e.operation} ${e.target}`)),
    comparison: await compareWithState(plane, state),
  };
}

/** The plane holds exactly what the state names for the kind: no orphan, no missing object, no duplicate. */
export function expectInventoryEqual(c: KindComparison, objects: number): void {
  expect({ orphans: c.orphans, missing: c.missing, duplicates: c.duplicates }).toEqual({ orphans: [], missing: [], duplicates: [] });
  expect(c.plane).toHaveLength(objects);
}

/** Objects of each kind the program holds after a round (a CycleCloud pool's objects are its nodes). */
const objectsAfter = (round: 0 | 1, kind: Kind) => (kind === "cyclecloud:NodePool" ? round + 1 : 1);

/**
 * The in-place field rounds 1 and 2 change, per kind, as the resource's outputs show it, and its
 * value in round 1, then in round 2.
 */
export const ROUNDS: Record<Kind, [(o: Record<string, unknown>) => unknown, unknown, unknown]> = {
  "cmassh:Cluster": [(o) => o.kubernetesVersion, "1.31.6", "1.32.3"],
  "cmassh:NodePool": [(o) => o.count, 2, 3],
  "peloton:ResourcePool": [(o) => (o.resources as { kind: string; limit: number }[]).find((r) => r.kind === "cpu")?.limit, 120, 140],
  "peloton:StatelessJob": [(o) => (o.defaultSpec as { containers: { image: string }[] }).containers[0].image, "nginx:1.28", "nginx:1.29"],
  "vcluster:VCluster": [(o) => o.replicas, 2, 3],
  "vcluster:Snapshot": [(o) => o.description, "round 1", "round 2"],
  "senlin:Cluster": [(o) => o.desiredCapacity, 2, 3],
  "senlin:Profile": [(o) => (o.metadata as Record<string, string> | undefined)?.round, "r1", "r2"],
  // The policy's name is `deletion-r<round>` (the Pulumi programs add `-<stack>`).
  "senlin:Policy": [(o) => String(o.name).split("-")[1], "r1", "r2"],
  "cyclecloud:NodePool": [(o) => o.count, 2, 3],
};

/** A rolling update of the job half done: the new workflow rolls forward with some instances updated, not all. */
async function rolloutHalfDone(plane: LocalPlane): Promise<boolean> {
  const [job] = await pelotonJobs(plane);
  const wf = job?.workflow;
  return wf?.state === "ROLLING_FORWARD" && wf.done.length >= 1 && wf.done.length < job.pods.length;
}

/** What the row restarting the plane left. */
interface RestartOutcome {
  /** The restarts (by label) at which each kind's create was in flight. */
  inFlightAt: Record<Kind, string[]>;
  /** The interrupted run's failure, when it failed rather than completed. */
  failure?: EngineFailure;
  comparison: Record<Kind, KindComparison>;
  created: Record<Kind, number>;
  deleted: Record<Kind, number>;
  calls: Record<Kind, string[]>;
}

/**
 * Registers the rows that interrupt the engine, on the stack `stack()` answers: SIGKILL during
 * create, update and delete, then the plane restarted during create. The first row starts from an
 * empty stack at round 0; the rows run in this order and each starts where the previous one ended.
 */
export function killRows(engine: Engine, stack: () => Promise<MatrixStack>): void {
  /** One step of a row: one or more killed runs, each with what it found in flight. */
  type Kill = { run: (t: MatrixStack) => Promise<{ label: string; result: Interruption }[]> };

  /**
   * Runs the kills of one row, then `converge` (and a preview, with `plan`), and gathers what each
   * kind's test asserts.
   */
  async function runRow(kills: Kill[], converge: (t: MatrixStack) => Promise<unknown>, opts: { plan?: boolean } = {}): Promise<RowOutcome> {
    const t = await stack();
    const since = await t.plane.lastSeq();
    const ccBefore = await ccCreatedNodes(t.plane);
    const inFlightAt = byKind(() => [] as string[]);
    const seen: string[] = [];
    for (const kill of kills) {
      for (const { label, result } of await kill.run(t)) {
        for (const k of result.inFlight) inFlightAt[k].push(label);
        seen.push(`${label}: pending ${[...result.pending].join(", ") || "none"}; accepted ${[...result.accepted].join(", ") || "none"}`);
      }
    }
    await converge(t);
    const resources = await t.resources();
    const outputs = byKind((k) => resources.filter((r) => kindOf(r.type) === k).map((r) => r.outputs ?? {}));
    const effects = await rowEffects(t.plane, t, since, ccBefore);
    const bindings = (await senlinClusters(t.plane)).map((c) => c.bindings.map((b) => b.policy_id));
    return { inFlightAt, kills: seen, outputs, bindings, ...effects, planned: opts.plan ? await t.planned() : undefined };
  }

  /** Kinds that count as in flight only once an extra condition holds, given the stack. */
  type Ready = Partial<Record<Kind, (t: MatrixStack) => Promise<boolean>>>;
  const readyOn = (t: MatrixStack, ready: Ready) => Object.fromEntries(Object.entries(ready).map(([k, f]) => [k, () => f(t)]));

  /** A kill of `command` once `kinds` are all in flight at once, the `held` calls held at the plane first. */
  const kill = (label: string, command: "up" | "destroy", phase: Phase, kinds: readonly Kind[], held: Holds): Kill => ({
    run: async (t) => {
      await holdCalls(t.plane, held, HOLD_MS);
      return [{ label, result: await killRun(t, command, { phase, kinds, held }) }];
    },
  });

  /**
   * Kills of `command` until each of `kinds` was in flight at one: each run holds the calls of the
   * kinds not caught yet and is killed once one of them is in flight (and a moment later, for others
   * to join), at most one run per kind. For kinds whose operations start at moments that differ by
   * engine (a child starts once its parent is done, and a killed run's parents finish at the
   * plane's pace), where no one instant has them all in flight. A run that ends before catching
   * any leaves the kinds not caught, whose cells fail.
   */
  const killEach = (label: string, command: "up" | "destroy", phase: Phase, kinds: readonly Kind[], held: Holds, ready: Ready = {}): Kill => ({
    run: async (t) => {
      const caught: { label: string; result: Interruption }[] = [];
      let left = [...kinds];
      for (let i = 1; left.length > 0 && i <= kinds.length; i++) {
        const holds = Object.fromEntries(Object.entries(held).filter(([k]) => left.includes(k as Kind))) as Holds;
        await holdCalls(t.plane, holds, HOLD_MS);
        const result = await killRun(t, command, { phase, kinds: left, held: holds, ready: readyOn(t, ready), some: true }).catch((err: Error) => err);
        // Holds the run did not reach would hold the next run's calls of kinds caught already.
        await t.plane.clearFaults();
        if (result instanceof Error) {
          caught.push({ label: `${label} (run ${i}): ${result.message.slice(0, 1500)}`, result: { pending: new Set(), accepted: new Set(), inFlight: new Set() } });
          break;
        }
        caught.push({ label: `${label} (run ${i})`, result });
        left = left.filter((k) => !result.inFlight.has(k));
      }
      return caught;
    },
  });

  matrixScenario(
    engine,
    "SIGKILL of the engine during create",
    () =>
      runRow(
        [
          kill("parents' creates", "up", "create", PARENTS, { "peloton:ResourcePool": "CreateResourcePool", "senlin:Profile": "CreateProfile", "senlin:Policy": "CreatePolicy" }),
          kill("children's creates", "up", "create", CHILDREN, { "vcluster:Snapshot": "SnapshotVCluster" }),
        ],
        (t) => t.up(),
      ),
    (row, kind) => {
      expect(row.inFlightAt[kind], `${kind}: its create was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
      expectInventoryEqual(row.comparison[kind], objectsAfter(0, kind));
      // The rerun adopted what the killed runs created: one object created per object held.
      expect(row.created[kind], row.calls[kind].join("; ")).toBe(objectsAfter(0, kind));
      expect(row.deleted[kind]).toBe(0);
      // The rerun that adopted the Senlin cluster also bound it to its policy, once: the killed
      // create never got that far.
      if (kind === "senlin:Cluster") expect(row.bindings).toEqual([row.comparison["senlin:Policy"].state]);
    },
  );

  matrixScenario(
    engine,
    "SIGKILL of the engine during update (Peloton: mid rolling update)",
    () =>
      runRow(
        [
          {
            run: async (t) => {
              await t.configure({ round: 1 });
              return kill("parents' updates", "up", "update", PARENTS, { "peloton:ResourcePool": "UpdateResourcePool", "senlin:Profile": "UpdateProfile", "senlin:Policy": "UpdatePolicy" }).run(t);
            },
          },
          // The children start as their parents finish: the Senlin cluster's resize soon after its
          // profile and policy, the pool's scale after its cluster's upgrade, the snapshot after its
          // vcluster's scale. The job counts once its rolling update is half done.
          killEach(
            "children's updates",
            "up",
            "update",
            CHILDREN,
            { "cmassh:NodePool": "ScaleNodePool", "vcluster:Snapshot": "SnapshotVCluster", "senlin:Cluster": "ResizeCluster" },
            { "peloton:StatelessJob": (t) => rolloutHalfDone(t.plane) },
          ),
        ],
        (t) => t.up(),
        { plan: true },
      ),
    (row, kind) => {
      expect(row.inFlightAt[kind], `${kind}: its update was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
      const [field, value] = ROUNDS[kind];
      expect(row.outputs[kind].map(field)).toEqual([value]);
      expectInventoryEqual(row.comparison[kind], objectsAfter(1, kind));
      // Only the snapshot's replacement and the CycleCloud pool's new node are new objects.
      expect(row.created[kind], row.calls[kind].join("; ")).toBe(kind === "vcluster:Snapshot" || kind === "cyclecloud:NodePool" ? 1 : 0);
      // Only the replaced snapshot is deleted.
      expect(row.deleted[kind]).toBe(kind === "vcluster:Snapshot" ? 1 : 0);
      // The runs after the kill mid rolling update waited for the workflow it started: one ReplaceJob in all.
      if (kind === "peloton:StatelessJob") {
        const [job] = row.comparison[kind].state;
        expect(pelotonMutations(row.audit).filter((m) => m.endsWith(` ${job}`))).toEqual([`ReplaceJob ${job}`]);
      }
      // What the last run recorded is what the program says: nothing more to do.
      expect(row.planned?.filter((c) => c.kind === kind).map((c) => `${c.op} ${c.name}`)).toEqual([]);
    },
  );

  matrixScenario(
    engine,
    "SIGKILL of the engine during delete",
    () =>
      runRow(
        [
          // Children go first, with the CycleCloud pool (nothing depends on it), then the parents.
          killEach("deletes", "destroy", "delete", [...CHILDREN, "cyclecloud:NodePool", ...PARENTS_OF_CHILDREN], {
            "cmassh:NodePool": "DeleteNodePool",
            "peloton:StatelessJob": "DeleteJob",
            "vcluster:Snapshot": "DeleteSnapshot",
            "cyclecloud:NodePool": "RemoveNodes",
            "peloton:ResourcePool": "DeleteResourcePool",
            "senlin:Profile": "DeleteProfile",
            "senlin:Policy": "DeletePolicy",
          }),
        ],
        (t) => t.destroy(),
      ),
    (row, kind) => {
      expect(row.inFlightAt[kind], `${kind}: its delete was in flight at a kill (${row.kills.join(" / ")})`).not.toEqual([]);
      const c = row.comparison[kind];
      expect({ plane: c.plane, state: c.state }).toEqual({ plane: [], state: [] });
      expect(row.outputs[kind]).toEqual([]);
    },
  );

  /**
   * `up` of every kind from nothing while the plane restarts twice: once with the parents' creates
   * in flight, once with the children's. The run completes or fails cleanly; then one more `up` runs.
   */
  async function upRestartingThePlane(): Promise<RestartOutcome> {
    const t = await stack();
    const since = await t.plane.lastSeq();
    const ccBefore = await ccCreatedNodes(t.plane);
    const restarts: { label: string; kinds: readonly Kind[]; held: Holds }[] = [
      { label: "parents' creates", kinds: PARENTS, held: { "peloton:ResourcePool": "CreateResourcePool", "senlin:Profile": "CreateProfile", "senlin:Policy": "CreatePolicy" } },
      { label: "children's creates", kinds: CHILDREN, held: { "vcluster:Snapshot": "SnapshotVCluster" } },
    ];
    await holdCalls(t.plane, restarts[0].held, HOLD_MS);
    const run = await startWatched(t, "up");
    const inFlightAt = byKind(() => [] as string[]);
    for (const [i, r] of restarts.entries()) {
      // Faults do not survive a restart: the next hold is set once the previous restart is over.
      if (i > 0) await holdCalls(t.plane, r.held, HOLD_MS);
      await run.whenInFlight({ phase: "create", kinds: r.kinds, held: r.held });
      const pending = run.pending();
      await t.plane.restart();
      for (const k of r.kinds) if (pending.has(k)) inFlightAt[k].push(r.label);
    }
    const failure = await run.ended;
    await t.up();
    return { inFlightAt, failure, ...(await rowEffects(t.plane, t, since, ccBefore)) };
  }

  matrixScenario(engine, "local control plane restarted during create", upRestartingThePlane, (row, kind) => {
    expect(row.inFlightAt[kind], `${kind}: its create was in flight at a restart`).not.toEqual([]);
    // Completed, or failed cleanly: the engine's report naming an operation, its object and the
    // platform's code (a call cut by the restart that is not safe to resend), no provider host crash.
    if (row.failure !== undefined) {
      expect(row.failure.message).toMatch(/[A-Z]\w+ \w+ "[^"]+": [A-Z_]+: /);
      expect(row.failure.message).not.toMatch(/\n\s+at .*\.js:\d+/);
    }
    expectInventoryEqual(row.comparison[kind], objectsAfter(1, kind));
    expect(row.created[kind], `${row.calls[kind].join("; ")}; first run: ${row.failure?.message ?? "completed"}`).toBe(objectsAfter(1, kind));
    expect(row.deleted[kind]).toBe(0);
  });
}
