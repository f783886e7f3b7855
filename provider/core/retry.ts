import { type Backoff, CALL_POLICY, type CallPolicy, classify, UNREACHABLE } from "./call-policy";
import { type Deadline, formatDuration } from "./deadline";
import { ClusterformError } from "./errors";

/** Waits `ms` milliseconds. Injected so tests run on a fake clock. */
export type Sleep = (ms: number) => Promise<void>;

// Aborted when the engine cancels the run (the native plugin's Cancel): every wait and retry sleeps
// through realSleep, so one signal ends them all promptly. The dynamic host never cancels.
const cancellation = new AbortController();

/**
 * Ends every current and future {@link realSleep} of this process with a Canceled error: the engine
 * asked the provider to stop (Ctrl-C, `pulumi cancel`). The process ends soon after, so nothing resets it.
 */
export function cancelAllWaits(): void {
  cancellation.abort();
}

/**
 * The signal every wait of this process ends on when the engine cancels (see {@link cancelAllWaits}):
 * a wait that is not a sleep (a watch stream) passes it to its call, then asks {@link throwIfCanceled}.
 */
export function cancelSignal(): AbortSignal {
  return cancellation.signal;
}

/** Throws the Canceled error once {@link cancelAllWaits} was called. */
export function throwIfCanceled(): void {
  if (cancellation.signal.aborted) throw canceled();
}

function canceled(): ClusterformError {
  return new ClusterformError({
    code: "Canceled",
    platformCode: "CANCELED",
    operation: "waiting",
    platformMessage: "the Pulumi engine canceled the operation (Ctrl-C or `pulumi cancel`); run `pulumi up` again to converge",
  });
}

/** The real sleep; rejects with a Canceled error once {@link cancelAllWaits} was called. */
export const realSleep: Sleep = (ms) =>
  new Promise((resolve, reject) => {
    const signal = cancellation.signal;
    if (signal.aborted) return reject(canceled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(canceled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** Options of {@link retryTransient}. */
export interface RetryOptions {
  /** No attempt starts and no wait ends after this deadline. */
  deadline: Deadline;
  /** What is being done, for error messages, e.g. `GetCluster cluster "prod"`. */
  operation: string;
  /** @default realSleep */
  sleep?: Sleep;
  /** Source of jitter in [0, 1). @default Math.random */
  random?: () => number;
  /**
   * How long a platform that is never reached (connection refused, unknown host) is retried before
   * giving up, however long the deadline. A platform that answers, even slowly or with errors, is
   * retried until the deadline. @default {@link DEFAULT_UNREACHABLE_MS}
   */
  unreachableMs?: number;
  /** @default {@link CALL_POLICY} */
  policy?: CallPolicy;
}

/** How long an unreachable platform is retried by default. */
export const DEFAULT_UNREACHABLE_MS = 60_000;

/**
 * Counts how long attempts have failed in a row without reaching the platform. `observe` is told
 * every attempt's failure (undefined for an answer); it throws the UNREACHABLE error once the streak
 * lasts `limitMs`, and any answer ends the streak. Shared by retries and waits.
 */
export function unreachableStreak(limitMs: number, now: () => number): { observe(failure: ClusterformError | undefined, operation: string): void } {
  let since: number | undefined;
  return {
    observe(failure, operation) {
      if (!failure?.unreachable) {
        since = undefined;
        return;
      }
      since ??= now();
      const elapsed = now() - since;
      if (elapsed >= limitMs) throw unreachableError(failure, operation, elapsed, limitMs);
    },
  };
}

/** The error that ends retrying a platform that was never reached within `limitMs`. */
function unreachableError(failure: ClusterformError, operation: string, elapsedMs: number, limitMs: number): ClusterformError {
  return new ClusterformError({
    code: "Unavailable",
    platformCode: UNREACHABLE,
    operation,
    platformMessage:
      `${failure.platformMessage} (${failure.platformCode}); still unreachable after ${formatDuration(elapsedMs)}, ` +
      `giving up (limit ${formatDuration(limitMs)}, set by clusterform:unreachableTimeout)`,
    cause: failure,
    unreachable: true,
  });
}

/**
 * The wait before retry number `attempt` (0 for the first retry): exponential with "equal jitter",
 * so it lies in [base/2, base) and concurrent clients spread out while never retrying instantly.
 * @param backoff - @default the backoff of {@link CALL_POLICY}
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random, backoff: Backoff = CALL_POLICY.backoff): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** attempt);
  return Math.round(base / 2 + (random() * base) / 2);
}

/** What deciding on the next attempt needs: one per retry loop. */
export interface RetryPlan {
  deadline: Deadline;
  /** What is being done, for the errors that end the retries. */
  operation: string;
  policy: CallPolicy;
  random: () => number;
  streak: ReturnType<typeof unreachableStreak>;
}

/** The {@link RetryPlan} of a loop with these options. */
export function retryPlan(options: RetryOptions): RetryPlan {
  const { deadline, operation } = options;
  const streak = unreachableStreak(options.unreachableMs ?? DEFAULT_UNREACHABLE_MS, () => deadline.now());
  return { deadline, operation, policy: options.policy ?? CALL_POLICY, random: options.random ?? Math.random, streak };
}

/**
 * After attempt `attempt` (0 first) failed with `failure`, a failure worth retrying: the pause
 * before the next attempt, or `stop`, the error that ends the retries because the policy's
 * attempts are used up (the failure itself) or the deadline leaves no room for the pause
 * (DeadlineExceeded, the failure as its cause).
 * @throws ClusterformError UNREACHABLE once the platform was never reached for the streak's limit.
 */
export function pauseAfter(failure: ClusterformError, attempt: number, plan: RetryPlan): { delayMs: number } | { stop: ClusterformError } {
  const { deadline, operation, policy } = plan;
  plan.streak.observe(failure, operation);
  if (policy.attempts !== undefined && attempt + 1 >= policy.attempts) return { stop: failure };
  const delayMs = backoffDelayMs(attempt, plan.random, policy.backoff);
  if (delayMs < deadline.remainingMs()) return { delayMs };
  return { stop: deadline.exceeded(operation, stillFailing(attempt + 1, failure), failure) };
}

const stillFailing = (attempts: number, failure: ClusterformError) =>
  `still failing after ${attempts} attempt(s): ${failure.platformCode}: ${failure.platformMessage}`;

/**
 * The error of a loop whose deadline passed before attempt `attempt` (0 first) could start: a pause
 * that fitted can still end late on a busy machine. It names the last failure, when there was one,
 * and carries it as its cause, so the platform's own answer (a refused connection, UNAVAILABLE) is
 * not lost behind the timeout.
 */
export function deadlinePassed(plan: RetryPlan, attempt: number, last: ClusterformError | undefined): ClusterformError {
  return plan.deadline.exceeded(plan.operation, last ? stillFailing(attempt, last) : `${attempt} attempt(s) made`, last);
}

/**
 * Runs `fn`, retrying it while it fails with an error the call policy retries (a lost answer or a
 * transient failure: the call must be idempotent) and the deadline allows another attempt after
 * the backoff. Other errors surface at once, translated; a platform never reached for
 * `unreachableMs` in a row ends the retries early (UNREACHABLE).
 * @param fn - receives the attempt number, 0 for the first call.
 * @throws ClusterformError: the translated error, or DeadlineExceeded carrying the last transient
 *   error as its cause when the deadline leaves no room for another attempt.
 */
export async function retryTransient<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { deadline, operation } = options;
  const sleep = options.sleep ?? realSleep;
  const plan = retryPlan(options);
  let failure: ClusterformError | undefined;
  for (let attempt = 0; ; attempt++) {
    if (deadline.expired()) throw deadlinePassed(plan, attempt, failure);
    try {
      return await fn(attempt);
    } catch (err) {
      failure = ClusterformError.from(err, operation);
    }
    const outcome = classify(failure, {}, plan.policy);
    if (outcome !== "lost" && outcome !== "transient") throw failure;
    const next = pauseAfter(failure, attempt, plan);
    if ("stop" in next) throw next.stop;
    await sleep(next.delayMs);
  }
}
