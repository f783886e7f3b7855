import { type Clock, type Deadline, formatDuration } from "./deadline";
import { isTransient } from "./call-policy";
import { ClusterformError } from "./errors";
import { DEFAULT_UNREACHABLE_MS, realSleep, type Sleep, unreachableStreak } from "./retry";

/** Poll interval bounds. */
export const POLL = { minMs: 200, maxMs: 10_000, fractionOfElapsed: 0.1 } as const;

/**
 * The pause before the next poll: 10% of the time waited so far, at least 200 ms, at most 10 s.
 * Noticing completion then lags the platform by at most max(250 ms, ~10% of the operation's
 * duration) while the number of polls grows only logarithmically with the duration.
 */
export function pollIntervalMs(elapsedMs: number): number {
  return Math.min(POLL.maxMs, Math.max(POLL.minMs, Math.round(elapsedMs * POLL.fractionOfElapsed)));
}

/**
 * How often an unchanged state is told again: first after 5 s, then after twice the previous
 * pause, at most every 60 s. A changed state is told at once and starts the series again. In a
 * non-interactive run (CI) every message is a printed line, and polls come up to five a second.
 */
export const QUIET_REPORT = { firstMs: 5_000, maxMs: 60_000 } as const;

/**
 * Decides which polls of a wait are told: the first, every change of the observed state, and an
 * unchanged state at the slowing pace of {@link QUIET_REPORT}.
 */
export function progressThrottle(): (state: string, elapsedMs: number) => boolean {
  let told: string | undefined;
  let toldAtMs = 0;
  let pauseMs: number = QUIET_REPORT.firstMs;
  return (state, elapsedMs) => {
    if (state !== told) {
      [told, toldAtMs, pauseMs] = [state, elapsedMs, QUIET_REPORT.firstMs];
      return true;
    }
    if (elapsedMs - toldAtMs < pauseMs) return false;
    [toldAtMs, pauseMs] = [elapsedMs, Math.min(pauseMs * 2, QUIET_REPORT.maxMs)];
    return true;
  };
}

/** Options of {@link waitFor}. */
export interface WaitOptions<T> {
  /** Reads the current state. Transient errors are retried within the deadline. */
  poll: () => Promise<T>;
  /** True when the wait is over. */
  isDone: (state: T) => boolean;
  /** A message when the state is a terminal failure (ends the wait early). @default never fails */
  failure?: (state: T) => string | undefined;
  /** When to give up. */
  deadline: Deadline;
  /** What is awaited, e.g. `cluster "prod" to be RUNNING`. */
  what: string;
  /**
   * Whose operation waits, when that is not the object awaited; put before every message and
   * error, e.g. `pool "general": ScaleNodePool to 5` when a pool's scale waits for its cluster.
   * @default none
   */
  by?: string;
  /**
   * Renders a state for the timeout message. Must not reveal secrets (kubeconfigs!).
   * @default JSON, cut at 200 characters
   */
  describe?: (state: T) => string;
  /** @default realSleep */
  sleep?: Sleep;
  /** @default the deadline's clock */
  now?: Clock;
  /** How long polls may fail without reaching the platform before the wait gives up. @default 60000 */
  unreachableMs?: number;
  /**
   * Told after the first poll, after each poll that observed a changed state and, while the state
   * stays the same, at the slowing pace of {@link QUIET_REPORT}: e.g. `waiting for cluster "prod"
   * to be RUNNING: status PROVISIONING (40s, timeout 30m)`. When the wait is over it is told so
   * (`waited 45s for cluster "prod" to be RUNNING`), and a promise it returns for that last message
   * is awaited: Pulumi keeps a row's last message until another replaces it, so the last one must
   * reach the engine before the step ends. @default nothing is told
   */
  progress?: (message: string) => unknown;
}

/** What {@link waitFor} returns. */
export interface WaitResult<T> {
  /** The state that satisfied `isDone`. */
  value: T;
  /** Polls made, failed ones included. */
  polls: number;
  /** Milliseconds from the start of the wait to the successful poll's end. */
  elapsedMs: number;
}

function defaultDescribe(state: unknown): string {
  const text = JSON.stringify(state) ?? String(state);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * Polls until `isDone`, a terminal `failure`, or the deadline. One last poll happens at the
 * deadline itself, so a wait never gives up while the platform finished in the final interval.
 * @throws ClusterformError: DeadlineExceeded naming `what`, the last state and the timeout;
 *   FailedPrecondition (platform code `TERMINAL_STATE`) on a terminal failure; any non-transient
 *   poll error.
 */
export async function waitFor<T>(options: WaitOptions<T>): Promise<WaitResult<T>> {
  const { deadline, isDone } = options;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? (() => deadline.now());
  const describe = options.describe ?? defaultDescribe;
  const by = options.by ? `${options.by}: ` : "";
  const what = `${by}waiting for ${options.what}`;
  const startMs = now();
  const streak = unreachableStreak(options.unreachableMs ?? DEFAULT_UNREACHABLE_MS, now);
  const shouldTell = progressThrottle();
  let polls = 0;
  let lastSeen = "nothing observed yet";
  for (;;) {
    polls++;
    const outcome = await pollOnce(options.poll, what);
    streak.observe(outcome.ok ? undefined : outcome.error, what);
    if (outcome.ok) {
      const failed = options.failure?.(outcome.value);
      if (failed !== undefined) throw terminalFailure(what, failed);
      if (isDone(outcome.value)) {
        const elapsedMs = now() - startMs;
        // Pulumi keeps a row's last message after the step ends, and an empty one cannot clear it:
        // leave one that says the wait is over, delivered before the step's end.
        await options.progress?.(`${by}waited ${formatDuration(elapsedMs)} for ${options.what}`);
        return { value: outcome.value, polls, elapsedMs };
      }
      lastSeen = `last observed: ${describe(outcome.value)}`;
    } else {
      lastSeen = `last poll failed: ${outcome.error.platformCode}: ${outcome.error.platformMessage}`;
    }
    const remainingMs = deadline.remainingMs();
    if (remainingMs <= 0) throw deadline.exceeded(what, lastSeen);
    const elapsedMs = now() - startMs;
    if (options.progress && shouldTell(lastSeen, elapsedMs)) {
      options.progress(`${what}: ${lastSeen.replace(/^last observed: /, "")} (${formatDuration(elapsedMs)}, timeout ${formatDuration(deadline.timeoutMs)})`);
    }
    await sleep(Math.min(pollIntervalMs(now() - startMs), remainingMs));
  }
}

type PollOutcome<T> = { ok: true; value: T } | { ok: false; error: ClusterformError };

async function pollOnce<T>(poll: () => Promise<T>, what: string): Promise<PollOutcome<T>> {
  try {
    return { ok: true, value: await poll() };
  } catch (err) {
    const error = ClusterformError.from(err, what);
    if (!isTransient(error)) throw error;
    return { ok: false, error };
  }
}

function terminalFailure(what: string, message: string): ClusterformError {
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "TERMINAL_STATE",
    operation: what,
    platformMessage: message,
  });
}
