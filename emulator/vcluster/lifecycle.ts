import { Phase } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { DRAIN_REASON } from "./drain";
import type { ClusterRecord, ClusterStore, OperationKind, OperationRecord } from "./store";

/**
 * How long each operation takes at time scale 1, in milliseconds: the reference server's sleeps
 * (create, scale and resume ~2 s, restore ~3 s, delete ~1 s, snapshot ~1 s). A drain's length is
 * its pods' evictions (drain.ts), all of it given as extra seconds.
 */
export const BASE_DURATION_MS: Readonly<Record<OperationKind, number>> = {
  create: 2000,
  scale: 2000,
  resume: 2000,
  restore: 3000,
  delete: 1000,
  snapshot: 1000,
  drain: 0,
};

/** The phase an in-flight operation imposes, highest priority first. Snapshots leave the phase alone. */
const IN_FLIGHT_PHASE: ReadonlyArray<readonly [OperationKind, Phase]> = [
  ["delete", Phase.DELETING],
  ["create", Phase.CREATING],
  ["restore", Phase.RESTORING],
  ["resume", Phase.RESUMING],
  ["scale", Phase.SCALING],
];

/** A cluster's phase: the highest-priority in-flight operation's, else its settled phase. */
export function derivePhase(cluster: ClusterRecord, inFlight: readonly OperationRecord[]): Phase {
  for (const [kind, phase] of IN_FLIGHT_PHASE) if (inFlight.some((op) => op.kind === kind)) return phase;
  return cluster.basePhase;
}

/** Operations that leave the phase alone while in flight. */
const PHASELESS: ReadonlySet<OperationKind> = new Set(["snapshot", "drain"]);

/** True when an in-flight operation changes the phase (everything but a snapshot or a drain). */
export function isTransitioning(inFlight: readonly OperationRecord[]): boolean {
  return inFlight.some((op) => !PHASELESS.has(op.kind));
}

/** What a settled operation did, for the watch event it causes. */
export type SettleOutcome = "modified" | "deleted";

/** The ERROR reason a failed operation leaves, e.g. `ScaleFailed`. */
export function failureReason(kind: OperationKind): string {
  return `${kind[0].toUpperCase()}${kind.slice(1)}Failed`;
}

type Effect = (store: ClusterStore, op: OperationRecord) => SettleOutcome;

const becomeReady: Effect = (store, op) => {
  store.update(op.clusterId, { basePhase: Phase.RUNNING, readyMs: op.endMs, reason: "", message: "", updateMs: op.endMs });
  return "modified";
};

/** What a succeeding operation changes when it ends. Spec changes are applied when an operation starts. */
const ON_SUCCESS: Readonly<Record<OperationKind, Effect>> = {
  create: becomeReady,
  resume: becomeReady,
  restore: becomeReady,
  scale: (store, op) => {
    store.update(op.clusterId, { basePhase: Phase.RUNNING, reason: "", message: "", updateMs: op.endMs });
    return "modified";
  },
  snapshot: (store, op) => {
    store.update(op.clusterId, { updateMs: op.endMs });
    return "modified";
  },
  delete: () => "deleted",
  // Every pod evicted: the control plane stops, as a suspend without a drain does at once.
  drain: (store, op) => {
    store.update(op.clusterId, { basePhase: Phase.SUSPENDED, reason: "", message: "", updateMs: op.endMs });
    return "modified";
  },
};

/**
 * What a failing operation changes when it ends, where it is not ERROR: a drain that timed out
 * never stopped the control plane, so the vcluster stays RUNNING, its reason saying why it did not suspend.
 */
const ON_FAILURE: Readonly<Partial<Record<OperationKind, Effect>>> = {
  drain: (store, op) => {
    store.update(op.clusterId, { basePhase: Phase.RUNNING, reason: DRAIN_REASON.timedOut, message: op.message, updateMs: op.endMs });
    return "modified";
  },
};

/** Applies one ended operation to its cluster; a snapshot's failure lives on the snapshot itself. */
export function applyOperation(store: ClusterStore, op: OperationRecord): SettleOutcome {
  if (op.outcome === "succeed" || op.kind === "snapshot") return ON_SUCCESS[op.kind](store, op);
  const failed = ON_FAILURE[op.kind];
  if (failed) return failed(store, op);
  store.update(op.clusterId, {
    basePhase: Phase.ERROR,
    reason: failureReason(op.kind),
    message: op.message,
    updateMs: op.endMs,
    ...(op.kind === "delete" ? { deleteMs: 0 } : {}),
  });
  return "modified";
}

/** An operation's length at a time scale, plus any extra simulated seconds (a delete's grace period). */
export function operationDurationMs(kind: OperationKind, timeScale: number, extraSeconds = 0): number {
  return Math.round((BASE_DURATION_MS[kind] + extraSeconds * 1000) * timeScale);
}
