import { afterAll, expect } from "vitest";
import { BASE_DURATION_MS } from "../../emulator/cmassh/lifecycle";
import { type AllKindsStack, compareStacksWithPlane, KINDS, type Kind, openAllKindsStack, type SharedComparison } from "../harness/all-kinds";
import { MUTATIONS } from "../harness/interrupt";
import type { AuditEntry } from "../harness/local-plane";
import { matrixScenario } from "../harness/matrix";
import { ccCreatedNodes, expectInventoryEqual, rowEffects } from "../harness/matrix-kill-rows";
import { checkpointPath, pendingKinds, pendingOperations } from "../harness/matrix-pulumi";
import type { TimelineEntry } from "./peloton-support";

const TIME_SCALE = 0.3;
const POOLS = 8;
const JOBS = 6;
const PARALLEL = 32;

let a: AllKindsStack | undefined;
let b: AllKindsStack | undefined;
afterAll(async () => {
  await a?.plane.stop();
});

const settle = <T>(run: Promise<T>) =>
  run.then(
    () => undefined,
    (err: Error) => err.message,
  );

interface TwoStacks {
  errors: (string | undefined)[];
  comparison: Record<Kind, SharedComparison>;
}

let upBoth: Promise<TwoStacks> | undefined;
const bothUp = () =>
  (upBoth ??= (async () => {
    a = await openAllKindsStack({ timeScale: TIME_SCALE });
    b = await openAllKindsStack({ plane: a.plane });
    const errors = await Promise.all([settle(a.stack.up()), settle(b.stack.up())]);
    return { errors, comparison: await compareStacksWithPlane(a.plane, [a.stack, b.stack]) };
  })());

/**
 * Both runs succeeded and, for `kind`, the plane holds exactly the two states' objects: none
 * orphaned, missing, duplicated or named by both stacks. Answers the kind's comparison.
 */
function expectBothTrue(errors: unknown[], comparison: Record<Kind, SharedComparison>, kind: Kind): SharedComparison {
  expect(errors).toEqual([undefined, undefined]);
  const c = comparison[kind];
  expect({ orphans: c.orphans, missing: c.missing, duplicates: c.duplicates, shared: c.shared }).toEqual({
    orphans: [],
    missing: [[], []],
    duplicates: [[], []],
    shared: [],
  });
  return c;
}

matrixScenario("dynamic", "two stacks up at once on one plane", bothUp, ({ errors, comparison }, kind) => {
  const c = expectBothTrue(errors, comparison, kind);
  expect(c.states.map((s) => s.length > 0)).toEqual([true, true]);
});

/** The most intervals `[start, end)` that are open at one instant. */
function maxOverlap(intervals: readonly [number, number][]): number {
  const edges = intervals.flatMap(([s, e]): [number, number][] => [
    [s, 1],
    [e, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let open = 0;
  let most = 0;
  for (const [, d] of edges) {
    open += d;
    most = Math.max(most, open);
  }
  return most;
}

/** cma-ssh pool operations from the audit log: each runs its documented duration from when it was accepted. */
function poolOperations(audit: AuditEntry[], operation: string, kind: keyof typeof BASE_DURATION_MS): [number, number][] {
  const durationMs = BASE_DURATION_MS[kind] * TIME_SCALE;
  return audit
    .filter((e) => e.api === "cmassh" && e.operation === operation && e.code === "OK")
    .map((e) => [Date.parse(e.time), Date.parse(e.time) + durationMs]);
}

/** Each job's rollout to its newest configuration, from the plane's instance timeline: first pod created to last pod running. */
async function rollouts(s: AllKindsStack, jobIds: string[]): Promise<[number, number][]> {
  return Promise.all(
    jobIds.map(async (id) => {
      const { entries } = await s.plane.admin<{ entries: TimelineEntry[] }>(`/_local/peloton/timeline?job=${id}`);
      const newest = Math.max(...entries.map((e) => e.configVersion));
      const pods = entries.filter((e) => e.configVersion === newest);
      return [Math.min(...pods.map((p) => p.createdMs)), Math.max(...pods.map((p) => p.runningMs ?? Number.POSITIVE_INFINITY))] as [number, number];
    }),
  );
}

interface ManyChanges {
  errors: (string | undefined)[];
  comparison: Record<Kind, SharedComparison>;
  /** Most platform operations at once: creates, then updates. */
  overlap: Record<"cmassh:NodePool" | "peloton:StatelessJob", [number, number]>;
  counts: Record<"cmassh:NodePool" | "peloton:StatelessJob", number>;
}

matrixScenario(
  "dynamic",
  `one stack changing ${POOLS} node pools of one cluster and ${JOBS} jobs of one pool in parallel (--parallel ${PARALLEL})`,
  async (): Promise<ManyChanges> => {
    await bothUp();
    const s = a!;
    await s.configure({ pools: POOLS, jobs: JOBS });
    const created = await s.plane.lastSeq();
    const createError = await settle(s.stack.up({ parallel: PARALLEL }));
    const jobIds = ((await s.stack.exportState()).deployment.resources ?? [])
      .filter((r: { type: string }) => r.type.endsWith("peloton:StatelessJob"))
      .map((r: { id: string }) => r.id);
    const jobsCreated = maxOverlap(await rollouts(s, jobIds));
    await s.configure({ round: 1 });
    const updated = await s.plane.lastSeq();
    const updateError = await settle(s.stack.up({ parallel: PARALLEL }));
    const [createAudit, updateAudit] = [await s.plane.audit(created), await s.plane.audit(updated)];
    const overlap: ManyChanges["overlap"] = {
      "cmassh:NodePool": [maxOverlap(poolOperations(createAudit, "AddNodePool", "add-pool")), maxOverlap(poolOperations(updateAudit, "ScaleNodePool", "scale-pool"))],
      "peloton:StatelessJob": [jobsCreated, maxOverlap(await rollouts(s, jobIds))],
    };
    // The figures the matrix's report quotes: how many operations the platform ran at once.
    console.info(`most operations at once (create, update): ${JSON.stringify(overlap)}`);
    return {
      errors: [createError, updateError],
      comparison: await compareStacksWithPlane(s.plane, [s.stack, b!.stack]),
      overlap,
      counts: { "cmassh:NodePool": POOLS, "peloton:StatelessJob": JOBS },
    };
  },
  ({ errors, comparison, overlap, counts }, kind) => {
    const c = expectBothTrue(errors, comparison, kind);
    const k = kind as keyof ManyChanges["overlap"];
    expect(c.states[0]).toHaveLength(counts[k]);
    // Created and changed at once: at least two of the platform's operations ran at the same time.
    expect(overlap[k].map((n) => n >= 2)).toEqual([true, true]);
  },
  ["cmassh:NodePool", "peloton:StatelessJob"],
);

let destroyBoth: Promise<TwoStacks> | undefined;
const bothDestroyed = () =>
  (destroyBoth ??= (async () => {
    await bothUp();
    const errors = await Promise.all([settle(a!.stack.destroy()), settle(b!.stack.destroy())]);
    return { errors, comparison: await compareStacksWithPlane(a!.plane, [a!.stack, b!.stack]) };
  })());

matrixScenario("dynamic", "two stacks destroyed at once on one plane", bothDestroyed, ({ errors, comparison }, kind) => {
  expect(errors).toEqual([undefined, undefined]);
  expect({ plane: comparison[kind].plane, states: comparison[kind].states }).toEqual({ plane: [], states: [[], []] });
});

/**
 * The plane's time scale for the restart: a cma-ssh pool takes 4.5 s to add and CycleCloud nodes 15 s
 * to start, so the up still waits on some operations for seconds after its last write was accepted,
 * however slowly a loaded machine lets the test notice it.
 */
const RESTART_TIME_SCALE = 3;

/** The calls that change something in an up of every kind from nothing, per kind: its create, and the Senlin cluster's policy attach. */
const UP_WRITES: Record<Kind, readonly string[]> = Object.fromEntries(
  KINDS.map((k) => [k, k === "senlin:Cluster" ? [...MUTATIONS[k].create, "AttachClusterPolicy"] : MUTATIONS[k].create]),
) as Record<Kind, readonly string[]>;

/** The accepted (code OK) calls of `operation` on the API of `kind`. */
const accepted = (audit: readonly AuditEntry[], kind: Kind, operation: string) =>
  audit.filter((e) => e.api === MUTATIONS[kind].api && e.operation === operation && e.code === "OK");

interface RestartedUp extends Awaited<ReturnType<typeof rowEffects>> {
  error?: string;
  /** The kinds whose operation the engine had begun and not seen answered when the plane stopped. */
  pending: Kind[];
  /** The audit sequence number of the restart. */
  restartedAt: number;
}

matrixScenario(
  "dynamic",
  "local control plane restarted once every create was accepted (the same up completes)",
  async (): Promise<RestartedUp> => {
    await bothDestroyed();
    const s = a!;
    await s.configure({ pools: undefined, jobs: undefined, round: undefined });
    await s.plane.restart({ timeScale: RESTART_TIME_SCALE });
    const since = await s.plane.lastSeq();
    const ccBefore = await ccCreatedNodes(s.plane);
    const checkpoint = await checkpointPath(s);
    const baseline = pendingOperations(checkpoint);
    let ended = false;
    const up = settle(s.stack.up()).finally(() => {
      ended = true;
    });
    // No write is cut by the restart: it comes once the plane has accepted every one the up sends,
    // and only reads (the waits) are left to meet the stopped plane.
    const written = async () => {
      const audit = await s.plane.audit(since);
      return KINDS.every((k) => UP_WRITES[k].every((op) => accepted(audit, k, op).length > 0));
    };
    await expect.poll(async () => ended || (await written()), { timeout: 180_000, interval: 100 }).toBe(true);
    const pending = ended ? [] : [...pendingKinds(checkpoint, baseline)];
    const restartedAt = await s.plane.lastSeq();
    console.info(`pending at the restart: ${pending.join(", ") || "none"}`);
    await s.plane.restart();
    const error = await up;
    return { error, pending, restartedAt, ...(await rowEffects(s.plane, s.stack, since, ccBefore)) };
  },
  (row, kind) => {
    expect(row.error).toBeUndefined();
    // The restart came while the up still waited on an operation of some kind.
    expect(row.pending, "the kinds pending at the restart").not.toEqual([]);
    // Nothing made twice (a vcluster's create sent again carries its request id, and makes nothing).
    expect(row.created[kind], `${row.calls[kind].join("; ")} (restart after ${row.restartedAt})`).toBe(1);
    expect(row.deleted[kind]).toBe(0);
    if (kind === "senlin:Cluster") expect(accepted(row.audit, kind, "AttachClusterPolicy")).toHaveLength(1);
    expectInventoryEqual(row.comparison[kind], 1);
  },
);
