import type { SenlinClient } from "../../../clients/senlin/client";
import type { Action } from "../../../clients/senlin/types";
import type { Deadline } from "../../../core/deadline";
import { type Answer, isAnswer } from "../../../core/call-policy";
import { sendUnlessDone } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { waitFor } from "../../../core/wait";

/** Action statuses that end an action without success. */
const FAILED_STATUSES = new Set(["FAILED", "CANCELLED"]);

/**
 * A 409 that means "try again later": another action works on the cluster, or it is cooling
 * down. Other 409s (a delete refused while policies are attached, a node that is not an orphan)
 * need something done first and are not waited out.
 */
const BUSY: Answer = { code: "Conflict", message: /conflicts with|cooldown|cooling down|in progress|is in status|locked/i, means: "the cluster is busy" };

/** True when the server refused a request only because the cluster is busy. */
export function isBusy(err: unknown): boolean {
  return err instanceof ClusterformError && isAnswer(err, BUSY);
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
 * it cools down) and transient failures by the call policy, within the deadline; answers the action
 * id. An action is not an object a look could find, so a request whose answer was lost is sent
 * again as it is (as before the call policy): while the first one runs Senlin refuses it as busy,
 * and a resize to an exact capacity or an update to given values sent twice ends the same; an
 * attach or detach that had landed is refused the second time and fails the step.
 * @param what - the request, e.g. `ResizeCluster cluster "web"`.
 */
export async function startAction(run: ActionRun, what: string, send: () => Promise<string>): Promise<string> {
  return sendUnlessDone({
    operation: what,
    deadline: run.deadline,
    send,
    answers: { transient: [BUSY] },
    progress: run.progress,
    unreachableMs: run.unreachableMs,
  });
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
