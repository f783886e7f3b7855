import type { SenlinClient } from "../../../clients/senlin/client";
import type { Action } from "../../../clients/senlin/types";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError, isTransient } from "../../../core/errors";
import { backoffDelayMs, realSleep } from "../../../core/retry";
import { waitFor } from "../../../core/wait";

/** Action statuses that end an action without success. */
const FAILED_STATUSES = new Set(["FAILED", "CANCELLED"]);

/**
 * A 409 that means "try again later": another action works on the cluster, or it is cooling
 * down. Other 409s (a delete refused while policies are attached, a node that is not an orphan)
 * need something done first and are not waited out.
 */
const BUSY = /conflicts with|cooldown|cooling down|in progress|is in status|locked/i;

/** True when the server refused a request only because the cluster is busy. */
export function isBusy(err: unknown): boolean {
  return err instanceof ClusterformError && err.code === "Conflict" && BUSY.test(err.platformMessage);
}

/** What running one action needs. */
export interface ActionRun {
  client: SenlinClient;
  deadline: Deadline;
  /** How long polls may fail without reaching the server. */
  unreachableMs: number;
  progress?: (message: string) => void;
}

/**
 * Sends a request that starts an action, waiting out a busy cluster (409: another action runs or
 * it cools down) and transient failures within the deadline; answers the action id.
 * @param what - the request, e.g. `ResizeCluster cluster "web"`.
 */
export async function startAction(run: ActionRun, what: string, send: () => Promise<string>): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const busy = isBusy(err);
      if (!(busy || isTransient(err))) throw err;
      const delayMs = Math.min(backoffDelayMs(Math.min(attempt, 6)), run.deadline.remainingMs());
      if (delayMs <= 0 || run.deadline.expired()) throw err;
      const reason = err instanceof ClusterformError ? err.platformMessage : String(err);
      run.progress?.(`${what}: ${busy ? "the cluster is busy" : "a transient failure"} (${reason}); trying again`);
      await realSleep(delayMs);
    }
  }
}

/**
 * Waits until the action succeeds, reading it at its `Location`. FAILED or CANCELLED ends the wait
 * at once with the action's `status_reason`.
 */
export async function waitForAction(run: ActionRun, what: string, actionId: string): Promise<Action> {
  const result = await waitFor({
    poll: () => run.client.getAction(actionId, { deadline: run.deadline }),
    isDone: (a) => a.status === "SUCCEEDED",
    failure: (a) => (FAILED_STATUSES.has(a.status) ? `${a.action} ended ${a.status}: ${a.statusReason || "no reason given"}` : undefined),
    describe: (a) => `${a.action} ${a.status}`,
    deadline: run.deadline,
    what: `${what} (action ${actionId}) to succeed`,
    unreachableMs: run.unreachableMs,
    progress: run.progress,
  });
  return result.value;
}

/** Starts an action and waits for it to succeed. */
export async function runAction(run: ActionRun, what: string, send: () => Promise<string>): Promise<Action> {
  const actionId = await startAction(run, what, send);
  return waitForAction(run, what, actionId);
}
