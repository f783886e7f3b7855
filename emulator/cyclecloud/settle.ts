import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "../database";
import { type NodeState, stateAfter, stateDuring } from "./lifecycle";
import type { CycleCloudStore, NodeRow } from "./store";

/** The `StatusMessage` of a node whose Spot VM was evicted. */
export const PREEMPTED_MESSAGE = "The virtual machine was preempted (Spot eviction)";

/** Whether a terminated node keeps its record (`Fixed: true`). */
export function isFixed(node: NodeRow): boolean {
  return node.attributes.Fixed === true;
}

function settleTransition(store: CycleCloudStore, node: NodeRow): void {
  const transition = node.transition!;
  const state = stateAfter(transition);
  const releasesVm = state === "Terminated" || state === "Deallocated";
  if (releasesVm) store.endUsage(node.id, transition.endMs);
  const removed = state === "Terminated" && (transition.kind === "remove" || !isFixed(node));
  store.settleNode(node.id, {
    state,
    statusMessage: transition.failMessage ?? "",
    failedMs: state === "Failed" ? transition.endMs : undefined,
    removedMs: removed ? transition.endMs : undefined,
  });
}

/** Evicts a Ready node's VM at `atMs`: billing stops and the node shows Failed. */
export function preemptNode(store: CycleCloudStore, node: NodeRow, atMs: number): void {
  store.endUsage(node.id, atMs);
  store.settleNode(node.id, { state: "Failed", statusMessage: PREEMPTED_MESSAGE });
  store.clearPreemption(node.id);
}

/**
 * Applies every transition and preemption due by `nowMs`, transitions first (a preemption is
 * planned after its node's create ends). Called before every read, so state is derived from the
 * clock and a restart continues where it stopped.
 */
export function settleNodes(db: DatabaseSync, store: CycleCloudStore, nowMs: number): void {
  for (const node of store.dueTransitions(nowMs)) inTransaction(db, () => settleTransition(store, node));
  for (const node of store.duePreemptions(nowMs)) {
    inTransaction(db, () => {
      if (node.state === "Ready") preemptNode(store, node, node.preemptAtMs!);
      else store.clearPreemption(node.id);
    });
  }
}

/** A settled node's state at `nowMs`. */
export function currentState(node: NodeRow, nowMs: number): NodeState {
  return node.transition ? stateDuring(node.transition, nowMs) : node.state;
}
