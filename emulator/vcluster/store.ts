import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Phase, type VClusterSpec, VClusterSpecSchema } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";

/** A stored vcluster. Its phase is derived from `basePhase` and its in-flight operations. */
export interface ClusterRecord {
  /** `vc-<unix seconds>-<n>`, as the reference server makes them. */
  id: string;
  name: string;
  namespace: string;
  spec: VClusterSpec;
  labels: Record<string, string>;
  owner: string;
  project: string;
  /** Bearer token of the default kubeconfig, fixed at creation. A secret. */
  token: string;
  createMs: number;
  updateMs: number;
  /** When the cluster last became ready; 0 if it never has. */
  readyMs: number;
  /** When deletion started; 0 if it has not. */
  deleteMs: number;
  /** The phase when no operation is in flight: RUNNING, SUSPENDED, ERROR (or CREATING before the first settle). */
  basePhase: Phase;
  /** Why the cluster is in ERROR, e.g. `CreateFailed`; empty otherwise. */
  reason: string;
  message: string;
  /** Bumped on every spec change. */
  generation: number;
  lastSnapshotId: string;
  /** Sequence number of the last watch event about this cluster. */
  resourceVersion: number;
}

/**
 * Long-running operations; each imposes a phase while in flight, except a snapshot and a drain
 * (the workload eviction a SuspendVCluster with `drain_workloads` runs first: the vcluster stays RUNNING).
 */
export type OperationKind = "create" | "scale" | "resume" | "restore" | "delete" | "snapshot" | "drain";

/** An operation whose outcome is decided when it starts and which takes effect at `endMs`. */
export interface OperationRecord {
  seq: number;
  /** `op-<unix seconds>-<n>`. */
  id: string;
  clusterId: string;
  kind: OperationKind;
  startMs: number;
  endMs: number;
  outcome: "succeed" | "fail";
  message: string;
  payload: {
    snapshotId?: string;
    readyReplicas?: number;
    deleteSnapshots?: boolean;
    /** A drain's pods to evict and its timeout (0: none). */
    pods?: number;
    timeoutSeconds?: number;
  };
}

type Row = Record<string, SQLInputValue>;

/** The cluster fields an update may write. */
export type MutableClusterField = Exclude<keyof ClusterRecord, "id" | "name" | "namespace" | "token" | "createMs" | "owner" | "project">;

const COLUMNS: Readonly<Record<MutableClusterField, string>> = {
  spec: "spec",
  labels: "labels",
  updateMs: "update_ms",
  readyMs: "ready_ms",
  deleteMs: "delete_ms",
  basePhase: "base_phase",
  reason: "reason",
  message: "message",
  generation: "generation",
  lastSnapshotId: "last_snapshot_id",
  resourceVersion: "resource_version",
};

/** A spec as stored. */
export function specToBlob(spec: VClusterSpec): Uint8Array {
  return toBinary(VClusterSpecSchema, spec);
}

/** A stored spec. */
export function specFromBlob(blob: unknown): VClusterSpec {
  return fromBinary(VClusterSpecSchema, blob as Uint8Array);
}

function sqlValue(field: MutableClusterField, value: unknown): SQLInputValue {
  if (field === "spec") return specToBlob(value as VClusterSpec);
  if (field === "labels") return JSON.stringify(value);
  return value as SQLInputValue;
}

function toCluster(row: Row): ClusterRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    namespace: String(row.namespace),
    spec: specFromBlob(row.spec),
    labels: JSON.parse(String(row.labels)) as Record<string, string>,
    owner: String(row.owner),
    project: String(row.project),
    token: String(row.token),
    createMs: Number(row.create_ms),
    updateMs: Number(row.update_ms),
    readyMs: Number(row.ready_ms),
    deleteMs: Number(row.delete_ms),
    basePhase: Number(row.base_phase) as Phase,
    reason: String(row.reason),
    message: String(row.message),
    generation: Number(row.generation),
    lastSnapshotId: String(row.last_snapshot_id),
    resourceVersion: Number(row.resource_version),
  };
}

function toOperation(row: Row): OperationRecord {
  return {
    seq: Number(row.seq),
    id: String(row.id),
    clusterId: String(row.cluster_id),
    kind: String(row.kind) as OperationKind,
    startMs: Number(row.start_ms),
    endMs: Number(row.end_ms),
    outcome: row.outcome === "fail" ? "fail" : "succeed",
    message: String(row.message),
    payload: JSON.parse(String(row.payload)) as OperationRecord["payload"],
  };
}

/** SQL access to vclusters, their operations and id counters. */
export class ClusterStore {
  constructor(readonly db: DatabaseSync) {}

  /** The next value of a named counter, starting at 1; ids stay unique across restarts. */
  nextCounter(name: string): number {
    const row = this.db
      .prepare("INSERT INTO vcluster_counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value")
      .get(name);
    return Number(row?.value);
  }

  /** The vcluster `namespace/name`, if stored. */
  find(namespace: string, name: string): ClusterRecord | undefined {
    const row = this.db.prepare("SELECT * FROM vcluster_clusters WHERE namespace = ? AND name = ?").get(namespace, name);
    return row ? toCluster(row as Row) : undefined;
  }

  /** The vcluster with this id, if stored. */
  findById(id: string): ClusterRecord | undefined {
    const row = this.db.prepare("SELECT * FROM vcluster_clusters WHERE id = ?").get(id);
    return row ? toCluster(row as Row) : undefined;
  }

  /** Every vcluster, by namespace then name. */
  list(): ClusterRecord[] {
    return this.db.prepare("SELECT * FROM vcluster_clusters ORDER BY namespace, name").all().map((r) => toCluster(r as Row));
  }

  /** Stores a new vcluster. */
  insert(c: ClusterRecord): void {
    this.db
      .prepare(
        `INSERT INTO vcluster_clusters (id, name, namespace, spec, labels, owner, project, token, create_ms, update_ms,
           ready_ms, delete_ms, base_phase, reason, message, generation, last_snapshot_id, resource_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.id, c.name, c.namespace, specToBlob(c.spec), JSON.stringify(c.labels), c.owner, c.project, c.token, c.createMs,
        c.updateMs, c.readyMs, c.deleteMs, c.basePhase, c.reason, c.message, c.generation, c.lastSnapshotId, c.resourceVersion,
      );
  }

  /** Writes the given fields of a vcluster. */
  update(id: string, fields: Partial<Pick<ClusterRecord, MutableClusterField>>): void {
    for (const [key, value] of Object.entries(fields)) {
      const field = key as MutableClusterField;
      this.db.prepare(`UPDATE vcluster_clusters SET ${COLUMNS[field]} = ? WHERE id = ?`).run(sqlValue(field, value), id);
    }
  }

  /** Removes a vcluster; its operations stay as history. */
  remove(id: string): void {
    this.db.prepare("DELETE FROM vcluster_clusters WHERE id = ?").run(id);
  }

  /** Records an operation. */
  insertOperation(op: Omit<OperationRecord, "seq">): void {
    this.db
      .prepare(
        "INSERT INTO vcluster_operations (id, cluster_id, kind, start_ms, end_ms, outcome, message, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(op.id, op.clusterId, op.kind, op.startMs, op.endMs, op.outcome, op.message, JSON.stringify(op.payload));
  }

  /** Unsettled operations that have ended by `nowMs`, in the order they ended. */
  dueOperations(nowMs: number): OperationRecord[] {
    return this.db
      .prepare("SELECT * FROM vcluster_operations WHERE settled = 0 AND end_ms <= ? ORDER BY end_ms, seq")
      .all(nowMs)
      .map((r) => toOperation(r as Row));
  }

  /** When the next unsettled operation ends, if any. */
  nextDueMs(): number | undefined {
    const row = this.db.prepare("SELECT MIN(end_ms) AS due FROM vcluster_operations WHERE settled = 0").get();
    return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
  }

  /** Marks an operation applied (or abandoned, when a forced delete overtakes it). */
  markSettled(seq: number): void {
    this.db.prepare("UPDATE vcluster_operations SET settled = 1 WHERE seq = ?").run(seq);
  }

  /** A cluster's operations that have not ended yet, oldest first. */
  inFlight(clusterId: string): OperationRecord[] {
    return this.db
      .prepare("SELECT * FROM vcluster_operations WHERE cluster_id = ? AND settled = 0 ORDER BY seq")
      .all(clusterId)
      .map((r) => toOperation(r as Row));
  }
}
