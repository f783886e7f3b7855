import { randomUUID } from "node:crypto";
import { inTransaction } from "../database";
import { evalClusterStatus, failAction } from "./cluster-state";
import { ACTION_KINDS } from "./effects";
import { type ActionName, type ActionPlan, type ActionRecord, type ClusterRecord, hasStarted, type Owner } from "./records";
import type { SenlinStore } from "./store";

/**
 * How long each action runs at time scale 1, in milliseconds. Real Senlin's durations depend on
 * the profile's backend (Nova boots take minutes); these keep tests fast while leaving every
 * intermediate status observable.
 */
export const BASE_DURATION_MS: Readonly<Record<ActionName, number>> = {
  CLUSTER_CREATE: 3000,
  CLUSTER_DELETE: 2000,
  CLUSTER_UPDATE: 1500,
  CLUSTER_RESIZE: 2000,
  CLUSTER_SCALE_OUT: 2000,
  CLUSTER_SCALE_IN: 1500,
  CLUSTER_ADD_NODES: 1000,
  CLUSTER_DEL_NODES: 1000,
  CLUSTER_REPLACE_NODES: 2000,
  CLUSTER_ATTACH_POLICY: 500,
  CLUSTER_DETACH_POLICY: 500,
  CLUSTER_UPDATE_POLICY: 500,
  CLUSTER_CHECK: 1000,
  CLUSTER_RECOVER: 2000,
  CLUSTER_OPERATION: 1000,
  NODE_CREATE: 2000,
  NODE_DELETE: 1000,
  NODE_UPDATE: 1000,
  NODE_CHECK: 500,
  NODE_RECOVER: 1500,
  NODE_OPERATION: 1000,
};

/** What the action machinery needs. */
export interface ActionEnv {
  store: SenlinStore;
  /** Multiplies every action duration. */
  timeScale: number;
}

/** An action to queue. */
export interface ActionSpec {
  owner: Owner;
  action: ActionName;
  /** The cluster or node the action works on. */
  target: string;
  /** The cluster involved, or empty. */
  clusterId: string;
  /** e.g. `cluster_resize` (the id prefix is appended). */
  namePrefix: string;
  inputs?: Record<string, unknown>;
  plan?: ActionPlan;
  /** Seconds; the cluster's timeout for cluster actions. @default 3600 */
  timeout?: number;
  /** What a policy's check recorded on the action (a scaling policy's count). @default none */
  data?: Record<string, unknown>;
}

/**
 * Records an action. It starts when the last unfinished action on its target ends (at once when
 * there is none: conflicting requests were refused before) and runs for its kind's duration.
 */
export function queueAction(env: ActionEnv, nowMs: number, spec: ActionSpec): ActionRecord {
  const busyUntil = Math.max(nowMs, ...env.store.activeActions(spec.target).map((a) => a.endMs));
  const durationMs = Math.round(BASE_DURATION_MS[spec.action] * env.timeScale);
  const action: ActionRecord = {
    ...spec.owner,
    id: randomUUID(),
    name: `${spec.namePrefix}_${spec.target.slice(0, 8)}`,
    action: spec.action,
    target: spec.target,
    clusterId: spec.clusterId,
    cause: "RPC Request",
    status: "READY",
    statusReason: "",
    inputs: spec.inputs ?? {},
    outputs: {},
    timeout: spec.timeout ?? 3600,
    plan: spec.plan ?? {},
    createdAtMs: nowMs,
    startMs: busyUntil,
    endMs: busyUntil + durationMs,
    updatedAtMs: null,
    ...(spec.data ? { data: spec.data } : {}),
  };
  env.store.actions.insert(action);
  return action;
}

/** Senlin's reasons while a cluster action waits for its node actions, and once they all ended. */
export const WAITING_REASON = "Waiting for depended actions.";
export const DEPENDENTS_DONE_REASON = "All depended actions completed.";
/**
 * The share of its run an action that works through node actions spends RUNNING before it waits
 * for them, and READY after they ended. On the real Senlin both are its own work (making the node
 * actions, then storing the result) and short beside the nodes' work; here they are long enough
 * to be seen by a client polling the action.
 */
const OWN_WORK_SHARE = 0.1;

/**
 * Applies every action start and end due by `nowMs`, in time order, in one transaction (none when
 * nothing is due). Called before every request and admin view, so state is a function of the clock
 * and survives restarts.
 */
export function settleDueActions(env: ActionEnv, nowMs: number): void {
  if (!env.store.nextDueAction(nowMs)) return;
  inTransaction(env.store.db, () => applyDueActions(env, nowMs));
}

/**
 * {@link settleDueActions} inside a transaction the caller holds: a request settles what it
 * started in its own transaction, one commit instead of one per action event.
 */
export function applyDueActions(env: ActionEnv, nowMs: number): void {
  for (let due = env.store.nextDueAction(nowMs); due; due = env.store.nextDueAction(nowMs)) {
    if (due.status === "READY" && due.waitingMs === undefined) startAction(env.store, due);
    else if (due.status === "RUNNING" && due.waitingMs !== undefined) setWaiting(env.store, due);
    else if (due.status === "WAITING" && due.plan.failure === undefined) setReadyAgain(env.store, due);
    else endAction(env.store, due);
  }
}

/** A cluster action has made its node actions and waits for them (Senlin's dependency_add). */
function setWaiting(store: SenlinStore, action: ActionRecord): void {
  store.actions.update(action.id, (a) => ({ ...a, status: "WAITING", statusReason: WAITING_REASON }));
}

/**
 * Its node actions all ended (Senlin's action_check_status): READY until it stores its result. A
 * failure decided in advance skips this, as a failed node action fails its parent at once.
 */
function setReadyAgain(store: SenlinStore, action: ActionRecord): void {
  store.actions.update(action.id, (a) => ({ ...a, status: "READY", statusReason: DEPENDENTS_DONE_REASON }));
}

/** From when to when an action that works through node actions waits for them. */
function waitingPhase(action: ActionRecord): Pick<ActionRecord, "waitingMs" | "readyAgainMs"> {
  const own = Math.round((action.endMs - action.startMs) * OWN_WORK_SHARE);
  return { waitingMs: action.startMs + own, readyAgainMs: Math.max(action.startMs + own, action.endMs - own) };
}

function startAction(store: SenlinStore, action: ActionRecord): void {
  const kind = ACTION_KINDS[action.action];
  // Senlin's engine never stores an action's updated_at: it stays null however the action ends.
  const running = store.actions.update(action.id, (a) => ({ ...a, status: "RUNNING" }))!;
  // A refused action (a size check of its own) fails before touching the cluster.
  if (running.plan.refusal !== undefined) return;
  const cluster = running.clusterId ? store.clusters.get(running.clusterId) : undefined;
  if (cluster && kind.running) {
    const [status, statusReason] = kind.running;
    store.clusters.update(cluster.id, (c) => ({ ...c, status, statusReason }));
  }
  kind.onStart?.(store, running, running.startMs);
  // A policy's check stores the action (its `data`): that one store is the updated_at Senlin shows.
  const checked = store.actions.get(action.id);
  if (checked && Object.keys(checked.data ?? {}).length > 0) store.actions.update(action.id, (a) => ({ ...a, updatedAtMs: a.startMs }));
  // Read after onStart: it decides the nodes the action works on, and a rolling update its end.
  const started = store.actions.get(action.id);
  if (started && kind.waitsForNodes?.(store, started)) store.actions.update(action.id, (a) => ({ ...a, ...waitingPhase(a) }));
}

/** The `status_reason` every action that succeeds ends with (the dispatcher's, whatever the action said). */
export const SUCCESS_REASON = "Action completed successfully.";

function endAction(store: SenlinStore, action: ActionRecord): void {
  if (action.plan.refusal !== undefined) {
    store.actions.update(action.id, (a) => ({ ...a, status: "FAILED", statusReason: action.plan.refusal! }));
    return;
  }
  if (action.plan.failure !== undefined) {
    failAction(store, action, action.plan.failure);
    return;
  }
  const kind = ACTION_KINDS[action.action];
  // Before onEnd, which may remove what the reason depends on (a deleted cluster's members).
  const handlerReason = typeof kind.succeeded === "string" ? kind.succeeded : kind.succeeded(store, action);
  const outcome = kind.onEnd(store, action, action.endMs);
  if (outcome.failure !== undefined) {
    failAction(store, action, outcome.failure);
    return;
  }
  store.actions.update(action.id, (a) => ({ ...a, status: "SUCCEEDED", statusReason: SUCCESS_REASON, handlerReason, dependsOn: [] }));
}

/** Statuses an action may be cancelled in. */
export const CANCELLABLE: readonly string[] = ["READY", "RUNNING", "WAITING", "WAITING_LIFECYCLE_COMPLETION"];

/**
 * Cancels an unfinished action at `nowMs`: a READY one never starts; a started one stops without
 * its end effects, nodes it was creating end in ERROR, others it was working on go back to ACTIVE.
 */
export function cancelAction(store: SenlinStore, action: ActionRecord, nowMs: number): void {
  const wasRunning = hasStarted(action);
  store.actions.update(action.id, (a) => ({ ...a, status: "CANCELLED", statusReason: "Action execution cancelled.", endMs: nowMs, updatedAtMs: nowMs }));
  if (!wasRunning) return;
  // Derived actions not yet ended (a rolling update's later batches) end with their parent.
  for (const id of store.actions.get(action.id)?.plan.children ?? []) {
    const child = store.actions.get(id);
    if (child && CANCELLABLE.includes(child.status)) {
      store.actions.update(id, (a) => ({ ...a, status: "CANCELLED", statusReason: "Action execution cancelled.", endMs: nowMs, updatedAtMs: nowMs }));
    }
  }
  const touched = action.action.startsWith("NODE_") ? [store.nodes.get(action.target)] : store.members(action.clusterId);
  for (const node of touched) {
    if (!node || node.status === "ACTIVE" || node.status === "ERROR") continue;
    const status = node.status === "CREATING" ? "ERROR" : "ACTIVE";
    store.nodes.update(node.id, (n) => ({ ...n, status, statusReason: "Action cancelled", updatedAtMs: nowMs }));
  }
  if (action.clusterId) evalClusterStatus(store, action.clusterId, action.action, nowMs);
}

/** Whether an unfinished action works on this cluster or one of its nodes. */
export function activeActionsOn(store: SenlinStore, cluster: ClusterRecord): ActionRecord[] {
  return store.activeActionsOn(cluster.id);
}
