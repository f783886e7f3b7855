import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { type AllKindsStack, KINDS, type Kind, kindOf } from "./all-kinds";
import { engineEnv, spawnCli } from "./engine";
import type { AuditEntry } from "./local-plane";
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
export async function holdCalls(t: AllKindsStack, holds: Holds, holdMs: number): Promise<void> {
  for (const [kind, operation] of Object.entries(holds) as [Kind, string][]) {
    await t.plane.addFault({ api: MUTATIONS[kind].api, operation, action: "delay", delayMs: holdMs, count: 1 });
  }
}

/** The held kinds whose call has reached the plane: their hold (a one-shot fault) is taken. */
async function heldArrived(t: AllKindsStack, holds: Holds): Promise<Set<Kind>> {
  const { faults } = await t.plane.admin<{ faults: { api?: string; operation?: string; action: string }[] }>("/_local/faults");
  const waiting = new Set(faults.filter((f) => f.action === "delay").map((f) => `${f.api} ${f.operation}`));
  return new Set((Object.entries(holds) as [Kind, string][]).filter(([k, op]) => !waiting.has(`${MUTATIONS[k].api} ${op}`)).map(([k]) => k));
}

/** The path of the stack's checkpoint in the file backend. */
async function checkpointPath(t: AllKindsStack): Promise<string> {
  const project = (await t.stack.stack.workspace.projectSettings()).name;
  const backend = new URL(engineEnv().PULUMI_BACKEND_URL).pathname;
  return path.join(backend, ".pulumi", "stacks", project, `${t.stack.stack.name}.json`);
}

/** The pending operations the checkpoint on disk records, as `<type> <urn>` (empty before the first write). */
export function pendingOperations(checkpointFile: string): string[] {
  try {
    const pending: { type: string; resource: { urn: string } }[] = JSON.parse(readFileSync(checkpointFile, "utf8")).checkpoint?.latest?.pending_operations ?? [];
    return pending.map((op) => `${op.type} ${op.resource.urn}`);
  } catch {
    return [];
  }
}

/**
 * The kinds with an operation the engine began and did not finish since `baseline` (the pending
 * operations at the run's start): the engine writes a pending operation before it calls the
 * provider and clears it when the answer comes. Pending creates of earlier interrupted runs stay in
 * the checkpoint until an interactive refresh clears them, so only operations beyond the baseline
 * count. Read from the file, so it costs no CLI run and works mid-run.
 */
export function pendingKinds(checkpointFile: string, baseline: readonly string[]): Set<Kind> {
  const left = [...baseline];
  const kinds = new Set<Kind>();
  for (const op of pendingOperations(checkpointFile)) {
    const i = left.indexOf(op);
    if (i >= 0) {
      left.splice(i, 1);
      continue;
    }
    const kind = kindOf(op.split("::")[2] ?? "");
    if (kind) kinds.add(kind);
  }
  return kinds;
}

/** What was in flight when an engine run was interrupted, per kind. */
export interface Interruption {
  /** The kinds whose operation was pending in the checkpoint when the interruption landed. */
  pending: Set<Kind>;
  /** The kinds whose provider's call for the phase the plane accepted during the run (before or after the interruption). */
  accepted: Set<Kind>;
  /** Kinds in flight: pending and accepted. */
  inFlight: Set<Kind>;
}

/** What {@link whenInFlight} waits for. */
export interface InFlightCondition {
  phase: Phase;
  /** The kinds that must all be in flight at once. */
  kinds: readonly Kind[];
  /**
   * Kinds whose call the plane holds (see {@link holdCalls}): for them, the call having reached the
   * plane (the hold taken) stands for its acceptance, which comes after the hold. @default {}
   */
  held?: Holds;
  /** An extra condition, e.g. a rolling update half done. @default none */
  also?: () => Promise<boolean>;
  /** How long to wait. @default 180 s */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Watches a running engine operation of the stack: its checkpoint and the plane's audit since `since`. */
export interface RunWatch {
  /** Waits until every kind of the condition is in flight at once; fails naming the kinds missing if the run ends or the time runs out first. */
  whenInFlight(condition: InFlightCondition, running: () => boolean): Promise<void>;
  /** The kinds pending in the checkpoint now. */
  pending(): Set<Kind>;
  /** Waits (up to 60 s) until the plane has accepted a call of each kind for the phase (a held call is carried out late), then reports the kinds in flight given those pending at the interruption. */
  settle(phase: Phase, kinds: readonly Kind[], pendingAtInterruption: Set<Kind>): Promise<Interruption>;
}

/** Starts watching the stack's checkpoint file and the plane's audit log from now on. */
export async function watchRun(t: AllKindsStack): Promise<RunWatch> {
  const file = await checkpointPath(t);
  const since = await t.plane.lastSeq();
  const baseline = pendingOperations(file);
  const accepted = async (phase: Phase) => {
    const entries = await t.plane.audit(since);
    return new Set(KINDS.filter((k) => acceptedCalls(entries, k, phase).length > 0));
  };
  return {
    pending: () => pendingKinds(file, baseline),
    async whenInFlight(c, running) {
      const deadline = Date.now() + (c.timeoutMs ?? 180_000);
      for (;;) {
        const pending = pendingKinds(file, baseline);
        const calls = await accepted(c.phase);
        const arrived = await heldArrived(t, c.held ?? {});
        const missing = c.kinds.filter((k) => !pending.has(k) || !(arrived.has(k) || calls.has(k)));
        if (missing.length === 0 && (await (c.also ?? (async () => true))())) return;
        if (!running() || Date.now() > deadline) {
          throw new Error(
            `the run ${running() ? "timed out" : "ended"} before every kind's ${c.phase} was in flight at once; ` +
              `missing: ${missing.join(", ") || "the extra condition"} (pending: ${[...pending].join(", ") || "none"}; accepted: ${[...calls].join(", ") || "none"})`,
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
 * Runs `pulumi <command>` of the stack as its own process group and SIGKILLs the whole engine (CLI,
 * language host, providers) once every kind of the condition is in flight at once, then releases
 * the lock the killed run left, as Pulumi tells the user to (`pulumi cancel`). What was pending is
 * read from the checkpoint the dead engine left.
 */
export async function killRun(t: AllKindsStack, command: "up" | "destroy", condition: InFlightCondition): Promise<Interruption> {
  const watch = await watchRun(t);
  const cli: ChildProcess = spawnCli(t.programDir, [command, "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
  let running = true;
  const exited = new Promise((resolve) => cli.once("exit", resolve)).finally(() => {
    running = false;
  });
  try {
    await watch.whenInFlight(condition, () => running);
  } finally {
    killTree(cli.pid!);
    await exited;
  }
  const result = await watch.settle(condition.phase, condition.kinds, watch.pending());
  await t.stack.stack.cancel();
  return result;
}
