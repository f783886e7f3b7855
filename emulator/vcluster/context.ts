import { Code, ConnectError } from "@connectrpc/connect";
import { Phase, type VCluster, WatchEventType } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { Clock } from "../clock";
import { inTransaction } from "../database";
import type { FaultRegistry } from "../faults";
import type { KubernetesHost } from "../kubernetes/host";
import { apiServerKey, heldForApiServer } from "./kubernetes";
import type { Journal, StoredEvent } from "./journal";
import { applyOperation, derivePhase, operationDurationMs } from "./lifecycle";
import type { SnapshotStore } from "./snapshot-store";
import type { WorkloadStore } from "./drain";
import type { ClusterRecord, ClusterStore, OperationKind, OperationRecord } from "./store";
import { failedPrecondition, notFound } from "./validation";
import { toVClusterMessage } from "./view";

/** Receives every committed watch event. */
export type EventListener = (event: StoredEvent) => void;

/** What the vcluster handlers share. */
export interface VclusterEnv {
  clusters: ClusterStore;
  snapshots: SnapshotStore;
  /** The pods each vcluster runs, which a drained suspend evicts. */
  workloads: WorkloadStore;
  journal: Journal;
  clock: Clock;
  /** Multiplies every simulated duration. */
  timeScale: number;
  faults: FaultRegistry;
  /** Open watches. */
  listeners: Set<EventListener>;
  /** Arms the timer for the next operation to end; set by the module. */
  reschedule(): void;
  /**
   * UpdateVCluster ignores `update_mask` as the API's reference server does: a spec sent replaces
   * the whole spec, labels merge. Off by default: the plane honours masks as the API documents.
   */
  ignoreUpdateMask: boolean;
  /** The API servers behind the vclusters (`--kubernetes`); absent without it. */
  kubernetes?: KubernetesHost;
}

/** A cluster settled at the current time, with what its phase is derived from. */
export interface ClusterView {
  cluster: ClusterRecord;
  inFlight: OperationRecord[];
  phase: Phase;
}

/** Records watch events inside a {@link mutate} transaction. */
export interface Emitter {
  /** Records a change of the cluster with this id, as it reads now; DELETED before the row goes. */
  emit(type: WatchEventType, clusterId: string): void;
}

/** `namespace/name`, how errors and audit targets name a vcluster. */
export const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The vcluster message of a stored cluster as it reads now. */
export function messageOf(env: VclusterEnv, cluster: ClusterRecord, includeKubeconfig = false): VCluster {
  const nowMs = env.clock.now();
  return toVClusterMessage({
    api: env.kubernetes?.access(apiServerKey(cluster.id)),
    cluster,
    inFlight: env.clusters.inFlight(cluster.id),
    pods: env.workloads.podsOf(cluster.id),
    timeScale: env.timeScale,
    lastSnapshot: cluster.lastSnapshotId ? env.snapshots.findById(cluster.lastSnapshotId, nowMs) : undefined,
    nowMs,
    includeKubeconfig,
  });
}

function recordEvent(env: VclusterEnv, type: WatchEventType, clusterId: string): StoredEvent | undefined {
  const seq = env.journal.reserveEvent(clusterId, type);
  env.clusters.update(clusterId, { resourceVersion: seq });
  const cluster = env.clusters.findById(clusterId);
  if (!cluster) return undefined;
  const vcluster = messageOf(env, cluster);
  env.journal.fillEvent(seq, vcluster);
  return { seq, type, vcluster };
}

/**
 * Runs `fn` in one transaction; the watch events it emits reach open watches only after the
 * commit, and the timer is re-armed for whatever operation ends next.
 */
export function mutate<T>(env: VclusterEnv, fn: (emitter: Emitter) => T): T {
  const events: StoredEvent[] = [];
  const result = inTransaction(env.clusters.db, () =>
    fn({
      emit: (type, clusterId) => {
        const event = recordEvent(env, type, clusterId);
        if (event) events.push(event);
      },
    }),
  );
  for (const event of events) for (const listener of env.listeners) listener(event);
  env.reschedule();
  return result;
}

/**
 * Applies every operation that has ended by now, in the order they ended, each as a watch event.
 * Called before every read and by the timer, so state follows the clock and survives restarts.
 */
export function settleDue(env: VclusterEnv): void {
  const nowMs = env.clock.now();
  // An operation that ends in RUNNING waits, in flight, for the cluster's API server.
  const due = env.clusters.dueOperations(nowMs).filter((op) => !heldForApiServer(env.kubernetes, op));
  if (due.length > 0) {
    mutate(env, ({ emit }) => {
      for (const op of due) {
        if (!env.clusters.findById(op.clusterId)) {
          env.clusters.markSettled(op.seq);
          continue;
        }
        const outcome = applyOperation(env.clusters, op);
        // A DELETED event shows the cluster as it was last seen: still DELETING.
        if (outcome === "deleted") emit(WatchEventType.DELETED, op.clusterId);
        env.clusters.markSettled(op.seq);
        if (outcome === "modified") {
          emit(WatchEventType.MODIFIED, op.clusterId);
          continue;
        }
        if (op.payload.deleteSnapshots) env.snapshots.removeOfCluster(op.clusterId);
        env.clusters.remove(op.clusterId);
        env.workloads.remove(op.clusterId);
      }
    });
  }
  env.snapshots.purgeExpired(nowMs);
}

/** The settled view of a stored cluster. */
export function viewOf(env: VclusterEnv, cluster: ClusterRecord): ClusterView {
  const inFlight = env.clusters.inFlight(cluster.id);
  return { cluster, inFlight, phase: derivePhase(cluster, inFlight) };
}

/** Settles, then reads `namespace/name`; NOT_FOUND if absent. The namespace is not defaulted, as upstream. */
export function loadCluster(env: VclusterEnv, namespace: string, name: string): ClusterView {
  settleDue(env);
  const cluster = env.clusters.find(namespace, name);
  if (!cluster) throw notFound("vcluster", keyOf(namespace, name));
  return viewOf(env, cluster);
}

/**
 * Throws FAILED_PRECONDITION unless the view's phase is one of `allowed`.
 * @param action - what the caller wants, for the message, e.g. `scale`.
 */
export function assertPhase(view: ClusterView, action: string, allowed: readonly Phase[]): void {
  if (allowed.includes(view.phase)) return;
  const key = JSON.stringify(keyOf(view.cluster.namespace, view.cluster.name));
  throw failedPrecondition(
    `cannot ${action} vcluster ${key} in phase ${Phase[view.phase]}: allowed in ${allowed.map((p) => Phase[p]).join(", ")}`,
  );
}

/** Like {@link loadCluster}, and FAILED_PRECONDITION unless the phase is one of `allowed`. */
export function loadInPhase(env: VclusterEnv, namespace: string, name: string, action: string, allowed: readonly Phase[]): ClusterView {
  const view = loadCluster(env, namespace, name);
  assertPhase(view, action, allowed);
  return view;
}

/** A new id in the reference server's shape, e.g. `vc-1700000000-3`. */
export function newId(env: VclusterEnv, prefix: "vc" | "op" | "snap"): string {
  return `${prefix}-${Math.floor(env.clock.now() / 1000)}-${env.clusters.nextCounter(prefix)}`;
}

/** What starting an operation needs beyond the cluster and kind. */
export interface OperationOptions {
  /** Failure reason when a "fail-operation" fault matched the call. */
  failureMessage?: string;
  payload?: OperationRecord["payload"];
  /** Simulated seconds added to the kind's duration. @default 0 */
  extraSeconds?: number;
}

/** Records an operation on a cluster and returns its id. */
export function startOperation(env: VclusterEnv, clusterId: string, kind: OperationKind, options: OperationOptions = {}): string {
  const id = newId(env, "op");
  const nowMs = env.clock.now();
  env.clusters.insertOperation({
    id,
    clusterId,
    kind,
    startMs: nowMs,
    endMs: nowMs + operationDurationMs(kind, env.timeScale, options.extraSeconds),
    outcome: options.failureMessage === undefined ? "succeed" : "fail",
    message: options.failureMessage ?? "",
    payload: options.payload ?? {},
  });
  return id;
}

/** INVALID_ARGUMENT for a request that must name a vcluster. */
export function requireName(name: string): void {
  if (name === "") throw new ConnectError("name is required", Code.InvalidArgument);
}
