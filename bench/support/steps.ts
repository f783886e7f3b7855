import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";
import type { EngineStack } from "../../test/harness/engine";
import type { AuditEntry, LocalPlane } from "../../test/harness/local-plane";

/** A step the engine reported done, stamped with the wall-clock time its event reached this process. */
export interface StepDone {
  type: string;
  op: OpType;
  atMs: number;
}

/** What one `up` did: the audit entries it caused, the steps it completed, its outputs and its span. */
export interface UpWindow {
  entries: AuditEntry[];
  done: StepDone[];
  outputs: Record<string, unknown>;
  startedMs: number;
  endedMs: number;
}

/**
 * Runs `up` and keeps, for each completed step, the moment its `resOutputsEvent` arrived here
 * (`Date.now()`: the event's own timestamp has whole seconds only). Events stream over gRPC from
 * CLI 3.206 on, so the callback runs as the engine emits them.
 */
export async function upWindow(plane: LocalPlane, stack: EngineStack): Promise<UpWindow> {
  const since = await plane.lastSeq();
  const done: StepDone[] = [];
  const onEvent = (event: EngineEvent) => {
    const meta = event.resOutputsEvent?.metadata;
    if (meta) done.push({ type: meta.type, op: meta.op, atMs: Date.now() });
  };
  const startedMs = Date.now();
  const result = await stack.stack.up({ onEvent, color: "never" });
  const endedMs = Date.now();
  const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value]));
  return { entries: await plane.audit(since), done, outputs, startedMs, endedMs };
}

/** The moment the engine reported a `op` step of a resource whose type ends with `typeSuffix`. */
export function stepDoneMs(window: UpWindow, typeSuffix: string, op: OpType): number {
  const steps = window.done.filter((d) => d.type.endsWith(typeSuffix) && d.op === op);
  if (steps.length !== 1) {
    const seen = window.done.map((d) => `${d.op} ${d.type}`).join(", ") || "none";
    throw new Error(`expected one ${op} of ${typeSuffix} reported done, got ${steps.length} (steps done: ${seen})`);
  }
  return steps[0].atMs;
}

/** The one successful call of `operation` in the window (on `target` when given). */
export function theCall(window: UpWindow, operation: string, target?: string): AuditEntry {
  const calls = window.entries.filter((e) => e.operation === operation && e.code === "OK" && (target === undefined || e.target === target));
  if (calls.length !== 1) {
    const seen = [...new Set(window.entries.map((e) => `${e.api}/${e.operation}`))].join(", ");
    throw new Error(`expected one successful ${operation}${target ? ` on ${target}` : ""} in the up's audit log, got ${calls.length} (calls: ${seen})`);
  }
  return calls[0];
}

/** An audit entry's time in epoch milliseconds. */
export function atMs(entry: AuditEntry): number {
  return Date.parse(entry.time);
}

/** The polling figures of one wait: which read noticed the finish, how many reads it took. */
export interface PollFigures {
  /** The first read at or after the finish, minus the finish: the provider's own noticing delay. */
  detectLagMs: number;
  /** Reads after the mutating call up to the engine's completion. */
  polls: number;
}

/**
 * Finds the reads (`isRead`) after `call` and the first of them at or after `finishMs`.
 * @throws when no read came after the finish: the operation was not waited for.
 */
export function pollFigures(window: UpWindow, call: AuditEntry, finishMs: number, doneMs: number, isRead: (e: AuditEntry) => boolean): PollFigures {
  const reads = window.entries.filter((e) => e.seq > call.seq && isRead(e));
  const noticing = reads.find((e) => atMs(e) >= finishMs);
  if (!noticing) throw new Error(`no read after ${call.operation} finished at ${new Date(finishMs).toISOString()}: the operation was not waited for`);
  return { detectLagMs: atMs(noticing) - finishMs, polls: reads.filter((e) => atMs(e) <= doneMs).length };
}
