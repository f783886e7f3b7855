import { KINDS, type Kind } from "./all-kinds";
import type { AuditEntry, LocalPlane } from "./local-plane";
import type { EngineFailure, EngineRun, MatrixStack } from "./matrix-stack";
import { killTree } from "./processes";

/** The engine's phases a matrix row interrupts. */
export type Phase = "create" | "update" | "delete";

/**
 * The mutating calls each kind's provider makes, per phase, on its platform's API as the local
 * control plane's audit log names them. A snapshot has no in-place field: its update is a
 * replacement (delete, then a new snapshot). A job's delete stops it first.
 */
export const MUTATIONS: Readonly<Record<Kind, { api: string } & Record<Phase, readonly string[]>>> = {
  "cmassh:Cluster": { api: "cmassh", create: ["CreateCluster"], update: ["UpgradeCluster"], delete: ["DeleteCluster"] },
  "cmassh:NodePool": { api: "cmassh", create: ["AddNodePool"], update: ["ScaleNodePool"], delete: ["DeleteNodePool"] },
  "peloton:ResourcePool": { api: "peloton", create: ["CreateResourcePool"], update: ["UpdateResourcePool"], delete: ["DeleteResourcePool"] },
  "peloton:StatelessJob": { api: "peloton", create: ["CreateJob"], update: ["ReplaceJob"], delete: ["StopJob", "DeleteJob"] },
  "vcluster:VCluster": { api: "vcluster", create: ["CreateVCluster"], update: ["ScaleVCluster"], delete: ["DeleteVCluster"] },
  "vcluster:Snapshot": { api: "vcluster", create: ["SnapshotVCluster"], update: ["DeleteSnapshot", "SnapshotVCluster"], delete: ["DeleteSnapshot"] },
  "senlin:Cluster": { api: "senlin", create: ["CreateCluster"], update: ["ResizeCluster"], delete: ["DeleteCluster"] },
  "senlin:Profile": { api: "senlin", create: ["CreateProfile"], update: ["UpdateProfile"], delete: ["DeleteProfile"] },
  "senlin:Policy": { api: "senlin", create: ["CreatePolicy"], update: ["UpdatePolicy"], delete: ["DeletePolicy"] },
  "cyclecloud:NodePool": { api: "cyclecloud", create: ["CreateNodes"], update: ["CreateNodes"], delete: ["RemoveNodes"] },
};

/** The accepted (code OK) calls of `kind`'s provider for `phase` among audit entries. */
export function acceptedCalls(entries: readonly AuditEntry[], kind: Kind, phase: Phase): AuditEntry[] {
  const { api, [phase]: operations } = MUTATIONS[kind];
  return entries.filter((e) => e.api === api && e.code === "OK" && operations.includes(e.operation));
}

/** A kind's calls for a phase that the plane holds before answering: see {@link holdCalls}. */
export type Holds = Partial<Record<Kind, string>>;

/**
 * Makes the plane sit on the next call of each given kind's `operation` for `holdMs` before
 * carrying it out (a `delay` fault, applied before the handler). Some operations are done the moment
 * the platform accepts them (a resource pool, a snapshot delete); held, they stay in flight long
 * enough for a kill to land inside them, and the plane still carries them out after the engine
 * died: the call was sent, the engine never learns the answer.
 */
export async function holdCalls(plane: LocalPlane, holds: Holds, holdMs: number): Promise<void> {
  for (const [kind, operation] of Object.entries(holds) as [Kind, string][]) {
    await plane.addFault({ api: MUTATIONS[kind].api, operation, action: "delay", delayMs: holdMs, count: 1 });
  }
}

/** The held kinds whose call has reached the plane: their hold (a one-shot fault) is taken. */
async function heldArrived(plane: LocalPlane, holds: Holds): Promise<Set<Kind>> {
  const { faults } = await plane.admin<{ faults: { api?: string; operation?: string; action: string }[] }>("/_local/faults");
  const waiting = new Set(faults.filter((f) => f.action === "delay").map((f) => `${f.api} ${f.operation}`));
  return new Set((Object.entries(holds) as [Kind, string][]).filter(([k, op]) => !waiting.has(`${MUTATIONS[k].api} ${op}`)).map(([k]) => k));
}

/** What was in flight when an engine run was interrupted, per kind. */
export interface Interruption {
  /** The kinds whose operation was pending (begun, not answered: {@link EngineRun.pending}) when the interruption landed. */
  pending: Set<Kind>;
  /** The kinds whose provider's call for the phase the plane accepted during the run (before or after the interruption). */
  accepted: Set<Kind>;
  /** Kinds in flight: pending and accepted. */
  inFlight: Set<Kind>;
}

/** What {@link WatchedRun.whenInFlight} waits for. */
export interface InFlightCondition {
  phase: Phase;
  /** The kinds that must all be in flight at once. */
  kinds: readonly Kind[];
  /**
   * Kinds whose call the plane holds (see {@link holdCalls}): for them, the call having reached the
   * plane (the hold taken) stands for its acceptance, which comes after the hold. @default {}
   */
  held?: Holds;
  /** Kinds that count as in flight only once an extra condition holds, e.g. a rolling update half done. @default none */
  ready?: Partial<Record<Kind, () => Promise<boolean>>>;
  /**
   * Wait for one kind of `kinds` in flight rather than all, then `graceMs` more for others to join:
   * the interruption catches whichever are in flight then. @default false: all at once
   */
  some?: boolean;
  /** See `some`. @default 1500 */
  graceMs?: number;
  /** How long to wait. @default 180 s */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An engine run, watched through what the engine records (its pending operations) and the plane's audit since it started. */
export interface WatchedRun extends EngineRun {
  /** Waits until every kind of the condition (or one: `some`) is in flight at once; fails naming the kinds missing if the run ends or the time runs out first. */
  whenInFlight(condition: InFlightCondition): Promise<void>;
  /** Waits (up to 60 s) until the plane has accepted a call of each kind for the phase (a held call is carried out late), then reports the kinds in flight given those pending at the interruption. */
  settle(phase: Phase, kinds: readonly Kind[], pendingAtInterruption: Set<Kind>): Promise<Interruption>;
}

/** Starts `up` or `destroy` of the stack (see {@link MatrixStack.start}) and watches it. */
export async function startWatched(t: MatrixStack, command: "up" | "destroy"): Promise<WatchedRun> {
  const since = await t.plane.lastSeq();
  const run = t.start(command);
  // Observed, so that a run failing before anyone awaits it is no unhandled rejection.
  run.ended.catch(() => undefined);
  const accepted = async (phase: Phase) => {
    const entries = await t.plane.audit(since);
    return new Set(KINDS.filter((k) => acceptedCalls(entries, k, phase).length > 0));
  };
  return {
    pid: run.pid,
    pending: () => run.pending(),
    running: () => run.running(),
    ended: run.ended,
    async whenInFlight(c) {
      const deadline = Date.now() + (c.timeoutMs ?? 180_000);
      for (;;) {
        const pending = run.pending();
        const calls = await accepted(c.phase);
        const arrived = await heldArrived(t.plane, c.held ?? {});
        const missing: Kind[] = [];
        for (const k of c.kinds) {
          if (!pending.has(k) || !(arrived.has(k) || calls.has(k)) || !(await (c.ready?.[k] ?? (async () => true))())) missing.push(k);
        }
        if (c.some && missing.length < c.kinds.length) {
          await sleep(c.graceMs ?? 1500);
          return;
        }
        if (missing.length === 0) return;
        if (!run.running() || Date.now() > deadline) {
          const ended: EngineFailure | undefined = run.running() ? undefined : await run.ended;
          throw new Error(
            `the run ${run.running() ? "timed out" : "ended"} before ${c.some ? "any" : "every"} kind's ${c.phase} was in flight${c.some ? "" : " at once"}; ` +
              `missing: ${missing.join(", ")} (pending: ${[...pending].join(", ") || "none"}; accepted: ${[...calls].join(", ") || "none"})` +
              (ended ? `; the run failed: ${ended.message.slice(0, 3000)}` : ""),
          );
        }
        await sleep(100);
      }
    },
    async settle(phase, kinds, pendingAtInterruption) {
      let calls = await accepted(phase);
      const until = Date.now() + 60_000;
      while (kinds.some((k) => !calls.has(k)) && Date.now() < until) {
        await sleep(200);
        calls = await accepted(phase);
      }
      const inFlight = new Set(KINDS.filter((k) => pendingAtInterruption.has(k) && calls.has(k)));
      return { pending: pendingAtInterruption, accepted: calls, inFlight };
    },
  };
}

/**
 * Runs `up` or `destroy` of the stack as its own process group and SIGKILLs the whole engine (CLI,
 * language host or plugins, providers) once every kind of the condition is in flight at once, then
 * does what the user must do after a killed run (`pulumi cancel`). What was pending is what the
 * dead engine left recorded.
 */
export async function killRun(t: MatrixStack, command: "up" | "destroy", condition: InFlightCondition): Promise<Interruption> {
  const run = await startWatched(t, command);
  try {
    await run.whenInFlight(condition);
  } finally {
    killTree(run.pid);
    await run.ended;
  }
  const result = await run.settle(condition.phase, condition.kinds, run.pending());
  await t.afterKill();
  return result;
}
