import type { Snapshot } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { keyOf, newId, startOperation, type VclusterEnv } from "./context";
import { operationDurationMs } from "./lifecycle";
import type { ClusterRecord } from "./store";
import { alreadyExists, assertDnsLabel, assertLabels } from "./validation";
import { toSnapshotMessage } from "./view";

/** The simulated size of a snapshot: etcd state per control plane replica, more with workloads. */
const SNAPSHOT_BYTES = { perReplica: 1_048_576, workloads: 8_388_608 } as const;

/** What a new snapshot needs beyond its cluster. */
export interface SnapshotOptions {
  name: string;
  description?: string;
  labels?: Readonly<Record<string, string>>;
  /** 0 keeps it until deleted. @default 0 */
  retentionHours?: number;
  /** @default false */
  includeWorkloads?: boolean;
  /** READY at once with no operation, as the snapshot SuspendVCluster takes. @default false */
  immediate?: boolean;
  /** Set when a "fail-operation" fault matched: the snapshot ends FAILED. */
  failureMessage?: string;
}

/**
 * Stores a snapshot of the cluster's current spec and labels and, unless immediate, the operation
 * that makes it READY. Runs inside a {@link mutate} transaction; the caller emits the event.
 */
export function createSnapshot(env: VclusterEnv, cluster: ClusterRecord, options: SnapshotOptions): { message: Snapshot; operationId: string } {
  assertDnsLabel("snapshot_name", options.name);
  assertLabels("labels", options.labels ?? {});
  const nowMs = env.clock.now();
  if (env.snapshots.findByName(cluster.namespace, options.name, nowMs)) {
    throw alreadyExists("snapshot", keyOf(cluster.namespace, options.name));
  }
  const id = newId(env, "snap");
  const retentionMs = Math.round((options.retentionHours ?? 0) * 3_600_000 * env.timeScale);
  const readyMs = options.immediate ? nowMs : nowMs + operationDurationMs("snapshot", env.timeScale);
  env.snapshots.insert({
    id,
    name: options.name,
    vclusterId: cluster.id,
    vclusterName: cluster.name,
    namespace: cluster.namespace,
    spec: cluster.spec,
    clusterLabels: cluster.labels,
    labels: { ...options.labels },
    description: options.description ?? "",
    sizeBytes: SNAPSHOT_BYTES.perReplica * cluster.spec.replicas + (options.includeWorkloads ? SNAPSHOT_BYTES.workloads : 0),
    createMs: nowMs,
    readyMs,
    expireMs: retentionMs > 0 ? nowMs + retentionMs : 0,
    outcome: options.failureMessage === undefined ? "succeed" : "fail",
    message: options.failureMessage ?? "",
    storageUri: `s3://vcluster-snapshots/${cluster.namespace}/${cluster.name}/${id}.tar.gz`,
  });
  env.clusters.update(cluster.id, { lastSnapshotId: id });
  const operationId = options.immediate
    ? ""
    : startOperation(env, cluster.id, "snapshot", { failureMessage: options.failureMessage, payload: { snapshotId: id } });
  return { message: toSnapshotMessage(env.snapshots.findById(id, nowMs)!, nowMs), operationId };
}
