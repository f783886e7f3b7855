import type { Code } from "@connectrpc/connect";
import { z } from "zod";
import { ChaosSource } from "./chaos";
import { ERROR_CODE_NAMES, parseErrorCode } from "./grpc-codes";

/**
 * The fault actions every platform understands. "latency" adds `delayMs` (plus up to `jitterMs`) to
 * every call it fires on, on top of any other fault; the others act once per call, oldest fault first.
 */
export const BUILT_IN_ACTIONS = ["error", "delay", "fail-operation", "reset", "latency"] as const;

/**
 * When a "reset" drops the connection: on receiving the request (nothing is done), or once the
 * call has been handled (the change is made, its answer lost).
 */
export const RESET_STAGES = ["request", "response"] as const;

/**
 * What a fault does to the calls it matches: one of {@link BUILT_IN_ACTIONS}, or an action a
 * platform module declares (e.g. a node that fails to start).
 */
export type FaultAction = string;

/** The call fields a fault is matched against. */
export interface CallIdentity {
  api: string;
  operation: string;
  target: string;
}

/** A registered fault with its remaining number of calls to affect. */
export interface Fault {
  id: string;
  api?: string;
  operation?: string;
  target?: string;
  /**
   * Matching calls still to affect. Absent only for a fault with a `probability`, which then acts
   * for as long as it is armed.
   */
  count?: number;
  action: FaultAction;
  /** gRPC code name for "error". */
  code?: string;
  message?: string;
  /** How long a "delay" holds the call, or what a "latency" adds to it. */
  delayMs?: number;
  /** A "latency" adds up to this many milliseconds more, drawn from the seeded source. @default 0 */
  jitterMs?: number;
  /** When a "reset" drops the connection. */
  stage?: (typeof RESET_STAGES)[number];
  /**
   * The chance (0 < p <= 1) that a matching call is affected, drawn from the plane's seeded source.
   * @default 1: every matching call, until `count` is used up
   */
  probability?: number;
  /** How many calls the fault has affected so far. */
  fired?: number;
}

/** The API and operation names a fault may name, per API. */
export type KnownOperations = Readonly<Record<string, readonly string[]>>;

const faultBody = z.strictObject({
  api: z.string().min(1).optional(),
  operation: z.string().min(1).optional(),
  target: z.string().optional(),
  count: z.number().int().positive().optional(),
  action: z.string().min(1),
  code: z.enum(ERROR_CODE_NAMES as [string, ...string[]]).optional(),
  message: z.string().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  jitterMs: z.number().int().nonnegative().optional(),
  stage: z.enum(RESET_STAGES).optional(),
  probability: z.number().gt(0).lte(1).optional(),
});

/** Thrown for a fault body that cannot be registered; the message names the field. */
export class FaultValidationError extends Error {}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? `field "${issue.path.join(".")}"` : "body";
  return `${field}: ${issue.message}`;
}

/**
 * Validates an admin request body into a fault without id, applying defaults.
 * @param extraActions - actions platform modules add. @default []
 */
export function parseFault(body: unknown, known: KnownOperations, extraActions: readonly string[] = []): Omit<Fault, "id"> {
  const result = faultBody.safeParse(body);
  if (!result.success) throw new FaultValidationError(`invalid fault: ${result.error.issues.map(describeIssue).join("; ")}`);
  const { count, ...rest } = result.data;
  // A count-based fault acts once unless told otherwise; a probabilistic one for as long as it is armed.
  const fault = count === undefined && rest.probability !== undefined ? rest : { ...rest, count: count ?? 1 };
  const actions = [...BUILT_IN_ACTIONS, ...extraActions];
  if (!actions.includes(fault.action)) {
    throw new FaultValidationError(`invalid fault: field "action": got "${fault.action}", allowed: ${actions.join(", ")}`);
  }
  if (fault.api !== undefined && !(fault.api in known)) {
    throw new FaultValidationError(`invalid fault: field "api": got "${fault.api}", allowed: ${Object.keys(known).join(", ")}`);
  }
  const operations = fault.api === undefined ? Object.values(known).flat() : known[fault.api];
  if (fault.operation !== undefined && !operations.includes(fault.operation)) {
    throw new FaultValidationError(
      `invalid fault: field "operation": got "${fault.operation}", allowed: ${operations.join(", ")}`,
    );
  }
  if ((fault.action === "delay" || fault.action === "latency") && fault.delayMs === undefined) {
    throw new FaultValidationError(`invalid fault: field "delayMs": required when action is "${fault.action}"`);
  }
  if (fault.jitterMs !== undefined && fault.action !== "latency") {
    throw new FaultValidationError(`invalid fault: field "jitterMs": only a "latency" has a jitter, got action "${fault.action}"`);
  }
  if (fault.stage !== undefined && fault.action !== "reset") {
    throw new FaultValidationError(`invalid fault: field "stage": only a "reset" has a stage, got action "${fault.action}"`);
  }
  if (fault.action === "reset") return { ...fault, stage: fault.stage ?? "request" };
  if (fault.action === "error") return { ...fault, code: fault.code ?? "UNAVAILABLE" };
  if (fault.action === "fail-operation") return { ...fault, message: fault.message ?? "simulated failure" };
  return fault;
}

function matches(fault: Fault, call: CallIdentity): boolean {
  return (
    (fault.api === undefined || fault.api === call.api) &&
    (fault.operation === undefined || fault.operation === call.operation) &&
    (fault.target === undefined || fault.target === call.target)
  );
}

/** What the seeded source keys a fault's decisions by: its definition, not its id or what is left of it. */
function decisionKey(fault: Fault): string {
  const { id: _id, count: _count, fired: _fired, ...definition } = fault;
  return JSON.stringify(definition, Object.keys(definition).sort());
}

/** In-memory fault registry: faults are test setup, so they do not survive a restart. */
export class FaultRegistry {
  private readonly faults: Fault[] = [];
  private nextId = 1;
  /** The seeded source probabilistic faults draw from. */
  readonly chaos: ChaosSource;

  /** @param seed - the chaos seed (an integer from 0 to 2^32 - 1). @default a random one */
  constructor(seed?: number) {
    this.chaos = new ChaosSource(seed);
  }

  /** Registers a validated fault and returns it with its id. */
  add(fault: Omit<Fault, "id">): Fault {
    const registered = { id: `fault-${this.nextId++}`, ...fault, fired: 0 };
    this.faults.push(registered);
    return { ...registered };
  }

  /** Removes every fault. */
  clear(): void {
    this.faults.length = 0;
  }

  /** Removes one fault; false when no fault has that id. */
  remove(id: string): boolean {
    const index = this.faults.findIndex((f) => f.id === id);
    if (index >= 0) this.faults.splice(index, 1);
    return index >= 0;
  }

  /** Snapshot of the registered faults, oldest first. */
  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Whether `fault` acts on this call: it matches, and its probability (if any) says so. */
  private fires(fault: Fault, call: CallIdentity, action: FaultAction): boolean {
    if (fault.action !== action || !matches(fault, call)) return false;
    if (fault.probability === undefined) return true;
    return this.chaos.next(decisionKey(fault), `${call.api}\u0000${call.operation}\u0000${call.target}`) < fault.probability;
  }

  /** Counts one use of a fault that acted, forgetting it once its count is used up. */
  private use(fault: Fault): Fault {
    fault.fired = (fault.fired ?? 0) + 1;
    if (fault.count !== undefined) {
      fault.count -= 1;
      if (fault.count <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    }
    return { ...fault };
  }

  /** Consumes one use of the oldest fault with `action` that acts on `call`, if any. */
  take(call: CallIdentity, action: FaultAction): Fault | undefined {
    const fault = this.faults.find((f) => this.fires(f, call, action));
    return fault && this.use(fault);
  }

  /** The latency every "latency" fault acting on `call` adds, summed, jitter included (0 when none). */
  latencyMs(call: CallIdentity): number {
    let total = 0;
    for (const fault of this.faults.filter((f) => this.fires(f, call, "latency"))) {
      const jitter = fault.jitterMs ? Math.floor(this.chaos.next(`${decisionKey(fault)}:jitter`, `${call.api}\u0000${call.operation}\u0000${call.target}`) * (fault.jitterMs + 1)) : 0;
      total += (fault.delayMs ?? 0) + jitter;
      this.use(fault);
    }
    return total;
  }
}

/** The Connect code of an "error" fault. */
export function faultCode(fault: Fault): Code {
  return parseErrorCode(fault.code ?? "UNAVAILABLE")!;
}
