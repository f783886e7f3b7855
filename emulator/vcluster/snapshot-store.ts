import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { VClusterSpec } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { specFromBlob, specToBlob } from "./store";

/** A stored snapshot. Its status is derived from the clock: CREATING until `readyMs`, then READY or FAILED. */
export interface SnapshotRecord {
  /** `snap-<unix seconds>-<n>`. */
  id: string;
  name: string;
  vclusterId: string;
  vclusterName: string;
  namespace: string;
  /** The vcluster's spec when the snapshot was taken; a restore brings it back. */
  spec: VClusterSpec;
  /** The vcluster's labels when the snapshot was taken. */
  clusterLabels: Record<string, string>;
  /** The snapshot's own labels. */
  labels: Record<string, string>;
  description: string;
  sizeBytes: number;
  createMs: number;
  readyMs: number;
  /** When the snapshot disappears; 0 keeps it until deleted. */
  expireMs: number;
  outcome: "succeed" | "fail";
  message: string;
  storageUri: string;
}

type Row = Record<string, SQLInputValue>;

function toSnapshot(row: Row): SnapshotRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    vclusterId: String(row.vcluster_id),
    vclusterName: String(row.vcluster_name),
    namespace: String(row.namespace),
    spec: specFromBlob(row.spec),
    clusterLabels: JSON.parse(String(row.cluster_labels)) as Record<string, string>,
    labels: JSON.parse(String(row.labels)) as Record<string, string>,
    description: String(row.description),
    sizeBytes: Number(row.size_bytes),
    createMs: Number(row.create_ms),
    readyMs: Number(row.ready_ms),
    expireMs: Number(row.expire_ms),
    outcome: row.outcome === "fail" ? "fail" : "succeed",
    message: String(row.message),
    storageUri: String(row.storage_uri),
  };
}

/** SQL access to snapshots. Expired snapshots are invisible to every read and purged on settle. */
export class SnapshotStore {
  constructor(readonly db: DatabaseSync) {}

  /** Stores a new snapshot. */
  insert(s: SnapshotRecord): void {
    this.db
      .prepare(
        `INSERT INTO vcluster_snapshots (id, name, vcluster_id, vcluster_name, namespace, spec, cluster_labels, labels,
           description, size_bytes, create_ms, ready_ms, expire_ms, outcome, message, storage_uri)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        s.id, s.name, s.vclusterId, s.vclusterName, s.namespace, specToBlob(s.spec), JSON.stringify(s.clusterLabels),
        JSON.stringify(s.labels), s.description, s.sizeBytes, s.createMs, s.readyMs, s.expireMs, s.outcome, s.message,
        s.storageUri,
      );
  }

  /** The live snapshot with this id. */
  findById(id: string, nowMs: number): SnapshotRecord | undefined {
    const row = this.db
      .prepare("SELECT * FROM vcluster_snapshots WHERE id = ? AND (expire_ms = 0 OR expire_ms > ?)")
      .get(id, nowMs);
    return row ? toSnapshot(row as Row) : undefined;
  }

  /** The live snapshot named `name` in `namespace`. */
  findByName(namespace: string, name: string, nowMs: number): SnapshotRecord | undefined {
    const row = this.db
      .prepare("SELECT * FROM vcluster_snapshots WHERE namespace = ? AND name = ? AND (expire_ms = 0 OR expire_ms > ?)")
      .get(namespace, name, nowMs);
    return row ? toSnapshot(row as Row) : undefined;
  }

  /** Every live snapshot, oldest first. */
  list(nowMs: number): SnapshotRecord[] {
    return this.db
      .prepare("SELECT * FROM vcluster_snapshots WHERE expire_ms = 0 OR expire_ms > ? ORDER BY create_ms, id")
      .all(nowMs)
      .map((r) => toSnapshot(r as Row));
  }

  /** Removes one snapshot. */
  remove(id: string): void {
    this.db.prepare("DELETE FROM vcluster_snapshots WHERE id = ?").run(id);
  }

  /** Removes every snapshot of a vcluster. */
  removeOfCluster(vclusterId: string): void {
    this.db.prepare("DELETE FROM vcluster_snapshots WHERE vcluster_id = ?").run(vclusterId);
  }

  /** Removes snapshots whose retention has run out. */
  purgeExpired(nowMs: number): void {
    this.db.prepare("DELETE FROM vcluster_snapshots WHERE expire_ms > 0 AND expire_ms <= ?").run(nowMs);
  }
}
