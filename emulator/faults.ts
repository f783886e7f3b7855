import type { Code } from "@connectrpc/connect";
import { z } from "zod";
import { ERROR_CODE_NAMES, parseErrorCode } from "./grpc-codes";

/** The fault actions every platform understands. */
export const BUILT_IN_ACTIONS = ["error", "delay", "fail-operation", "reset"] as const;

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
  /** Matching calls still to affect. */
  count: number;
  action: FaultAction;
  /** gRPC code name for "error". */
  code?: string;
  message?: string;
  delayMs?: number;
  /** When a "reset" drops the connection. */
  stage?: (typeof RESET_STAGES)[number];
}

/** The API and operation names a fault may name, per API. */
export type KnownOperations = Readonly<Record<string, readonly string[]>>;

const faultBody = z.strictObject({
  api: z.string().min(1).optional(),
  operation: z.string().min(1).optional(),
  target: z.string().optional(),
  count: z.number().int().positive().default(1),
  action: z.string().min(1),
  code: z.enum(ERROR_CODE_NAMES as [string, ...string[]]).optional(),
  message: z.string().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  stage: z.enum(RESET_STAGES).optional(),
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
  const fault = result.data;
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
  if (fault.action === "delay" && fault.delayMs === undefined) {
    throw new FaultValidationError('invalid fault: field "delayMs": required when action is "delay"');
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

/** In-memory fault registry: faults are test setup, so they do not survive a restart. */
export class FaultRegistry {
  private readonly faults: Fault[] = [];
  private nextId = 1;

  /** Registers a validated fault and returns it with its id. */
  add(fault: Omit<Fault, "id">): Fault {
    const registered = { id: `fault-${this.nextId++}`, ...fault };
    this.faults.push(registered);
    return registered;
  }

  /** Removes every fault. */
  clear(): void {
    this.faults.length = 0;
  }

  /** Snapshot of the registered faults, oldest first. */
  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Consumes one use of the oldest fault with `action` matching `call`, if any. */
  take(call: CallIdentity, action: FaultAction): Fault | undefined {
    const index = this.faults.findIndex((f) => f.action === action && matches(f, call));
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.count -= 1;
    if (fault.count <= 0) this.faults.splice(index, 1);
    return { ...fault };
  }
}

/** The Connect code of an "error" fault. */
export function faultCode(fault: Fault): Code {
  return parseErrorCode(fault.code ?? "UNAVAILABLE")!;
}
