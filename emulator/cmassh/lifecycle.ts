import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { inTransaction } from "../database";
import type { ClusterRecord, CmasshStore, OperationKind, OperationRecord } from "./store";

/** How long each operation takes at time scale 1, in milliseconds. */
export const BASE_DURATION_MS: Readonly<Record<OperationKind, number>> = {
  create: 3000,
  upgrade: 2000,
  "add-pool": 1500,
  "scale-pool": 1000,
  "delete-pool": 1000,
  delete: 1500,
};

/**
 * Status an in-flight operation kind imposes, highest priority first: deletion hides everything,
 * then provisioning, then any other change.
 */
const IN_FLIGHT_STATUS: ReadonlyArray<[OperationKind | "*", ClusterStatus]> = [
  ["delete", ClusterStatus.STOPPING],
  ["create", ClusterStatus.PROVISIONING],
  ["*", ClusterStatus.RECONCILING],
];

type SuccessEffect = (store: CmasshStore, op: OperationRecord) => void;

const clearErrorStartedAfterIt: SuccessEffect = (store, op) => {
  const cluster = store.db.prepare("SELECT provisioned, error_at_ms FROM cmassh_clusters WHERE id = ?").get(op.clusterId);
  // A success repairs an ERROR only if it was started after the failure, and never a failed create.
  if (cluster && Number(cluster.provisioned) === 1 && op.startMs >= Number(cluster.error_at_ms)) {
    store.updateCluster(op.clusterId, { errorMessage: "", errorAtMs: 0 });
  }
};

/** What a succeeding operation changes when it ends. Pool changes are applied when they start. */
const ON_SUCCESS: Readonly<Record<OperationKind, SuccessEffect>> = {
  create: (store, op) => store.updateCluster(op.clusterId, { provisioned: true }),
  upgrade: (store, op) => {
    store.updateCluster(op.clusterId, { k8sVersion: op.payload.version ?? "" });
    clearErrorStartedAfterIt(store, op);
  },
  "add-pool": clearErrorStartedAfterIt,
  "scale-pool": clearErrorStartedAfterIt,
  "delete-pool": clearErrorStartedAfterIt,
  delete: (store, op) => store.deleteCluster(op.clusterId),
};

/**
 * Applies the effects of every operation that has ended by `nowMs`, in the order they ended.
 * Called before every read, so state is derived from the clock and survives restarts. Operations
 * `held` answers true for are left for a later call.
 */
export function settleDueOperations(store: CmasshStore, nowMs: number, held: (op: OperationRecord) => boolean = () => false): void {
  for (const op of store.dueOperations(nowMs)) {
    // A held operation stays in flight past its end (a create waiting for its API server).
    if (held(op)) continue;
    inTransaction(store.db, () => {
      if (op.outcome === "succeed") ON_SUCCESS[op.kind](store, op);
      else store.updateCluster(op.clusterId, { errorMessage: op.message, errorAtMs: op.endMs });
      store.markSettled(op.id);
    });
  }
}

/** A cluster's status and the message that explains it (set only on ERROR). */
export interface DerivedStatus {
  status: ClusterStatus;
  statusMessage: string;
}

/** Derives a settled cluster's status from its in-flight operations and last failure. */
export function deriveStatus(cluster: ClusterRecord, inFlight: readonly OperationRecord[]): DerivedStatus {
  for (const [kind, status] of IN_FLIGHT_STATUS) {
    if (inFlight.some((op) => kind === "*" || op.kind === kind)) return { status, statusMessage: "" };
  }
  if (cluster.errorMessage) return { status: ClusterStatus.ERROR, statusMessage: cluster.errorMessage };
  const status = cluster.provisioned ? ClusterStatus.RUNNING : ClusterStatus.STATUS_UNSPECIFIED;
  return { status, statusMessage: "" };
}

/** Everything needed to start an operation. */
export interface OperationStart {
  store: CmasshStore;
  nowMs: number;
  timeScale: number;
  clusterId: number;
  kind: OperationKind;
  /** Failure reason when a fault says this operation must fail. */
  failureMessage?: string;
  payload?: OperationRecord["payload"];
}

/** Records an operation that ends after its kind's duration times the time scale. */
export function startOperation(start: OperationStart): void {
  const durationMs = Math.round(BASE_DURATION_MS[start.kind] * start.timeScale);
  start.store.insertOperation({
    clusterId: start.clusterId,
    kind: start.kind,
    startMs: start.nowMs,
    endMs: start.nowMs + durationMs,
    outcome: start.failureMessage === undefined ? "succeed" : "fail",
    message: start.failureMessage ?? "",
    payload: start.payload ?? {},
  });
}
