import { randomUUID } from "node:crypto";
import type { CallOptions as ConnectCallOptions } from "@connectrpc/connect";
import { type Clock, Deadline } from "../../core/deadline";
import { ClusterformError, withAddress } from "../../core/errors";
import { retryTransient, type Sleep } from "../../core/retry";

/** How calls are made: request ids, timeouts, retries. */
export interface CallerOptions {
  /** The address called, named in errors when it cannot be reached. @default "the platform" */
  endpoint?: string;
  /** How long an unreachable platform is retried, however long the deadline. @default 60000 */
  unreachableTimeoutMs?: number;
  /** Start of every `x-request-id` header. @default "clusterform" */
  requestIdPrefix?: string;
  /** Time limit of one call, cut to what the deadline has left. @default 30000 */
  callTimeoutMs?: number;
  /** Deadline of a call, retries included, when the caller gives none. @default 120000 */
  defaultDeadlineMs?: number;
  /** Sleep between retries (tests pass a fake). @default real timers */
  sleep?: Sleep;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Clock of default deadlines. @default Date.now */
  clock?: Clock;
}

/** Per-call options. */
export interface CallOptions {
  /** The call and its retries end by this deadline. @default `defaultDeadlineMs` from now */
  deadline?: Deadline;
}

/** One RPC attempt: receives Connect's call options and the attempt number (0 first). */
export type Rpc<T> = (callOptions: ConnectCallOptions, attempt: number) => Promise<T>;

/** Runs RPCs with a fresh request id and a timeout per attempt, errors translated. */
export interface Caller {
  /** One attempt, never retried: for calls that are not idempotent. */
  once<T>(operation: string, options: CallOptions | undefined, rpc: Rpc<T>): Promise<T>;
  /** Retries transient errors within the deadline: for idempotent calls. */
  retried<T>(operation: string, options: CallOptions | undefined, rpc: Rpc<T>): Promise<T>;
}

/** Creates a {@link Caller}. */
export function createCaller(options: CallerOptions): Caller {
  const prefix = options.requestIdPrefix ?? "clusterform";
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const deadlineOf = (o?: CallOptions) => o?.deadline ?? new Deadline(options.defaultDeadlineMs ?? 120_000, options.clock);

  async function attempt<T>(operation: string, deadline: Deadline, rpc: Rpc<T>, n: number): Promise<T> {
    const callOptions: ConnectCallOptions = {
      headers: { "x-request-id": `${prefix}-${randomUUID()}` },
      timeoutMs: Math.max(1, Math.min(callTimeoutMs, deadline.remainingMs())),
    };
    try {
      return await rpc(callOptions, n);
    } catch (err) {
      throw withAddress(ClusterformError.from(err, operation), options.endpoint ?? "the platform");
    }
  }

  return {
    once(operation, o, rpc) {
      const deadline = deadlineOf(o);
      deadline.throwIfExpired(operation);
      return attempt(operation, deadline, rpc, 0);
    },
    retried(operation, o, rpc) {
      const deadline = deadlineOf(o);
      const { sleep, random, unreachableTimeoutMs: unreachableMs } = options;
      return retryTransient((n) => attempt(operation, deadline, rpc, n), { deadline, operation, sleep, random, unreachableMs });
    },
  };
}

/**
 * A delete whose reply was lost may have landed: on a retry, NotFound means the earlier attempt
 * deleted it, so `result` is returned instead of the error.
 */
export function goneOnRetry<T>(rpc: Rpc<T>, result: T): Rpc<T> {
  return async (c, n) => {
    try {
      return await rpc(c, n);
    } catch (err) {
      if (n > 0 && ClusterformError.from(err, "").code === "NotFound") return result;
      throw err;
    }
  };
}
