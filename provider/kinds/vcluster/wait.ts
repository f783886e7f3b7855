import type { VclusterClient } from "../../clients/vcluster/client";
import type { VClusterRef } from "../../clients/vcluster/requests";
import type { PhaseName, VClusterState } from "../../clients/vcluster/types";
import { type Deadline, formatDuration } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { cancelSignal, throwIfCanceled } from "../../core/retry";
import { waitFor } from "../../core/wait";
import { findVCluster, keyOf } from "./common";

/** What a wait looks for; `undefined` stands for "the vcluster is gone". */
export interface VClusterWait {
  client: VclusterClient;
  ref: VClusterRef;
  deadline: Deadline;
  /** e.g. `RUNNING`, shown in messages. */
  target: string;
  isDone(state: VClusterState | undefined): boolean;
  /** A terminal failure's message. @default ERROR, or gone, is terminal */
  failure?(state: VClusterState | undefined): string | undefined;
  /** @default nothing is told */
  progress?: (message: string) => void;
}

/** How a wait ended: the final state and whether the watch or polling saw it. */
export interface WaitOutcome {
  state: VClusterState | undefined;
  via: "read" | "watch" | "poll";
}

/** The terminal failure of a vcluster in ERROR. */
export function errorPhase(state: VClusterState): string | undefined {
  return state.phase === "ERROR" ? `vcluster ${JSON.stringify(keyOf(state))} is in ERROR (${state.reason || "no reason"}): ${state.message || "no detail given"}` : undefined;
}

/** The `Suspended` condition's reason while a drained suspend evicts the workloads. */
export const DRAINING = "Draining";

/**
 * A suspend the platform ended without suspending: the vcluster is RUNNING with `Suspended=False`
 * for a reason other than a drain under way (a drain that outlasted its timeout, `DrainTimeout`).
 */
export function suspendRefused(state: VClusterState): string | undefined {
  if (state.phase !== "RUNNING") return undefined;
  const c = state.conditions.find((x) => x.type === "Suspended" && x.status === "False" && x.reason !== DRAINING);
  return c ? `vcluster ${JSON.stringify(keyOf(state))} was not suspended (${c.reason || "no reason"}): ${c.message || state.message || "no detail given"}` : undefined;
}

/** Safe to show: never the kubeconfig. */
function describe(state: VClusterState | undefined): string {
  return state ? `phase ${state.phase}${state.message ? ` (${state.message})` : ""}` : "gone";
}

class Terminal extends ClusterformError {}

function terminal(what: string, message: string): Terminal {
  return new Terminal({ code: "FailedPrecondition", platformCode: "TERMINAL_STATE", operation: what, platformMessage: message });
}

/**
 * Waits for a vcluster's state with WatchVCluster: a read first (done already?), then a watch from
 * that read's resource version, so no change between the two is missed and completion is noticed
 * the moment the server reports it rather than at the next poll. When the stream breaks (or the
 * server does not offer it), the rest of the wait polls GetVCluster with the shared backoff.
 * @throws ClusterformError DeadlineExceeded, or FailedPrecondition `TERMINAL_STATE` on ERROR.
 */
export async function waitForVCluster(w: VClusterWait): Promise<WaitOutcome> {
  const what = `vcluster ${JSON.stringify(keyOf(w.ref))} to be ${w.target}`;
  const failure = w.failure ?? ((s: VClusterState | undefined) => (s ? errorPhase(s) : `vcluster ${JSON.stringify(keyOf(w.ref))} no longer exists`));
  const check = (state: VClusterState | undefined): boolean => {
    const failed = failure(state);
    if (failed) throw terminal(`waiting for ${what}`, failed);
    return w.isDone(state);
  };
  const first = await findVCluster(w.client, w.ref, w.deadline);
  if (check(first)) return { state: first, via: "read" };
  const watched = await watchUntil(w, what, check, first?.resourceVersion ?? "");
  if (watched) return watched;
  const polled = await waitFor({
    poll: () => findVCluster(w.client, w.ref, w.deadline),
    isDone: (s) => w.isDone(s),
    failure,
    describe,
    deadline: w.deadline,
    what,
    progress: w.progress,
  });
  return { state: polled.value, via: "poll" };
}

/** The watch part: the outcome, or undefined when the stream broke and polling must take over. */
async function watchUntil(
  w: VClusterWait,
  what: string,
  check: (state: VClusterState | undefined) => boolean,
  resourceVersion: string,
): Promise<WaitOutcome | undefined> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), w.deadline.remainingMs());
  // The engine's Cancel ends the watch too, not only the sleeps of the poll after it.
  const onCancel = () => abort.abort();
  cancelSignal().addEventListener("abort", onCancel, { once: true });
  const started = w.deadline.now();
  try {
    for await (const event of w.client.watchVCluster({ ...w.ref, resourceVersion, signal: abort.signal })) {
      const state = event.type === "DELETED" ? undefined : event.vcluster;
      if (check(state)) return { state, via: "watch" };
      w.progress?.(
        `waiting for ${what}: ${describe(state)} (${formatDuration(w.deadline.now() - started)}, timeout ${formatDuration(w.deadline.timeoutMs)})`,
      );
    }
    // The watch ended quietly only because the deadline (or a cancel) aborted it; the poll below makes the last check.
    throwIfCanceled();
    return undefined;
  } catch (err) {
    if (err instanceof Terminal) throw err;
    throwIfCanceled();
    w.progress?.(`the watch of vcluster ${JSON.stringify(keyOf(w.ref))} broke (${err instanceof Error ? err.message : String(err)}); polling instead`);
    return undefined;
  } finally {
    clearTimeout(timer);
    cancelSignal().removeEventListener("abort", onCancel);
    abort.abort();
  }
}

/**
 * Waits until the vcluster's phase is one of `phases`.
 * @param after - the call the wait follows, named in messages (e.g. `ScaleVCluster`). @default none
 * @param refused - a terminal failure besides ERROR and gone, e.g. {@link suspendRefused}. @default none
 */
export function waitForPhase(
  client: VclusterClient,
  ref: VClusterRef,
  phases: readonly PhaseName[],
  deadline: Deadline,
  progress?: (message: string) => void,
  after?: string,
  refused?: (state: VClusterState) => string | undefined,
): Promise<WaitOutcome> {
  return waitForVCluster({
    client,
    ref,
    deadline,
    target: `${phases.join(" or ")}${after ? ` after ${after}` : ""}`,
    isDone: (s) => s !== undefined && phases.includes(s.phase),
    failure: (s) => (s ? (errorPhase(s) ?? refused?.(s)) : `vcluster ${JSON.stringify(keyOf(ref))} no longer exists`),
    progress,
  });
}

/** Waits until GetVCluster answers NOT_FOUND (the watch's DELETED event). */
export function waitForGone(client: VclusterClient, ref: VClusterRef, deadline: Deadline, progress?: (message: string) => void): Promise<WaitOutcome> {
  return waitForVCluster({ client, ref, deadline, target: "deleted", isDone: (s) => s === undefined, failure: () => undefined, progress });
}
