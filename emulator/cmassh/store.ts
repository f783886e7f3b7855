import type { DatabaseSync, SQLInputValue } from "node:sqlite";

/** A Kubernetes label as cma-ssh carries it. */
export interface Label {
  name: string;
  value: string;
}

/** Machine spec shared by the control plane and worker pools. */
export interface MachineSet {
  instanceType: string;
  count: number;
  labels: Label[];
}

/** A worker node pool. */
export interface PoolRecord extends MachineSet {
  name: string;
}

/** A stored cluster; its status is derived from its operations, never stored. */
export interface ClusterRecord {
  id: number;
  name: string;
  k8sVersion: string;
  controlPlane: MachineSet;
  /** Bearer token of the generated kubeconfig, fixed at creation. */
  token: string;
  /** Whether the create operation succeeded, so the kubeconfig exists. */
  provisioned: boolean;
  /** Failure reason of the last failed operation; empty when none. */
  errorMessage: string;
  /** When `errorMessage` was set, epoch ms. */
  errorAtMs: number;
}

/** Long-running operation kinds, one per mutating RPC. */
export type OperationKind = "create" | "upgrade" | "add-pool" | "scale-pool" | "delete-pool" | "delete";

/** A long-running operation: its outcome is decided when it starts and takes effect at `endMs`. */
export interface OperationRecord {
  id: number;
  clusterId: number;
  kind: OperationKind;
  startMs: number;
  endMs: number;
  outcome: "succeed" | "fail";
  message: string;
  /** Kind-specific data applied on success, e.g. the target version of an upgrade. */
  payload: { version?: string };
}

type Row = Record<string, SQLInputValue>;

type MutableClusterField = "k8sVersion" | "provisioned" | "errorMessage" | "errorAtMs";

const CLUSTER_COLUMNS: Record<MutableClusterField, string> = {
  k8sVersion: "k8s_version",
  provisioned: "provisioned",
  errorMessage: "error_message",
  errorAtMs: "error_at_ms",
};

function toCluster(row: Row): ClusterRecord {
  return {
    id: Number(row.id),
    name: String(row.name),
    k8sVersion: String(row.k8s_version),
    controlPlane: {
      instanceType: String(row.cp_instance_type),
      count: Number(row.cp_count),
      labels: JSON.parse(String(row.cp_labels)) as Label[],
    },
    token: String(row.token),
    provisioned: Number(row.provisioned) === 1,
    errorMessage: String(row.error_message),
    errorAtMs: Number(row.error_at_ms),
  };
}

function toPool(row: Row): PoolRecord {
  return {
    name: String(row.name),
    instanceType: String(row.instance_type),
    count: Number(row.count),
    labels: JSON.parse(String(row.labels)) as Label[],
  };
}

function toOperation(row: Row): OperationRecord {
  return {
    id: Number(row.id),
    clusterId: Number(row.cluster_id),
    kind: String(row.kind) as OperationKind,
    startMs: Number(row.start_ms),
    endMs: Number(row.end_ms),
    outcome: row.outcome === "fail" ? "fail" : "succeed",
    message: String(row.message),
    payload: JSON.parse(String(row.payload)) as OperationRecord["payload"],
  };
}

/** SQL access to cma-ssh clusters, pools and operations. */
export class CmasshStore {
  constructor(readonly db: DatabaseSync) {}

  /** The cluster named `name`, if stored. */
  findCluster(name: string): ClusterRecord | undefined {
    const row = this.db.prepare("SELECT * FROM cmassh_clusters WHERE name = ?").get(name);
    return row ? toCluster(row as Row) : undefined;
  }

  /** All clusters, by name. */
  listClusters(): ClusterRecord[] {
    return this.db.prepare("SELECT * FROM cmassh_clusters ORDER BY name").all().map((r) => toCluster(r as Row));
  }

  /** Inserts a cluster and returns its id. */
  insertCluster(name: string, k8sVersion: string, controlPlane: MachineSet, token: string): number {
    const result = this.db
      .prepare(
        "INSERT INTO cmassh_clusters (name, k8s_version, cp_instance_type, cp_count, cp_labels, token) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(name, k8sVersion, controlPlane.instanceType, controlPlane.count, JSON.stringify(controlPlane.labels), token);
    return Number(result.lastInsertRowid);
  }

  /** Updates the given fields of a cluster; a missing cluster is left alone. */
  updateCluster(id: number, fields: Partial<Pick<ClusterRecord, MutableClusterField>>): void {
    for (const [key, value] of Object.entries(fields)) {
      const column = CLUSTER_COLUMNS[key as MutableClusterField];
      const sqlValue = typeof value === "boolean" ? Number(value) : (value as SQLInputValue);
      this.db.prepare(`UPDATE cmassh_clusters SET ${column} = ? WHERE id = ?`).run(sqlValue, id);
    }
  }

  /** Removes a cluster and its pools; its operations stay as history. */
  deleteCluster(id: number): void {
    this.db.prepare("DELETE FROM cmassh_pools WHERE cluster_id = ?").run(id);
    this.db.prepare("DELETE FROM cmassh_clusters WHERE id = ?").run(id);
  }

  /** Pools of a cluster, by name. */
  listPools(clusterId: number): PoolRecord[] {
    return this.db
      .prepare("SELECT * FROM cmassh_pools WHERE cluster_id = ? ORDER BY name")
      .all(clusterId)
      .map((r) => toPool(r as Row));
  }

  /** Adds a pool to a cluster. */
  insertPool(clusterId: number, pool: PoolRecord): void {
    this.db
      .prepare("INSERT INTO cmassh_pools (cluster_id, name, instance_type, count, labels) VALUES (?, ?, ?, ?, ?)")
      .run(clusterId, pool.name, pool.instanceType, pool.count, JSON.stringify(pool.labels));
  }

  /** Removes one pool. */
  deletePool(clusterId: number, name: string): void {
    this.db.prepare("DELETE FROM cmassh_pools WHERE cluster_id = ? AND name = ?").run(clusterId, name);
  }

  /** Sets the node count of one pool. */
  setPoolCount(clusterId: number, name: string, count: number): void {
    this.db.prepare("UPDATE cmassh_pools SET count = ? WHERE cluster_id = ? AND name = ?").run(count, clusterId, name);
  }

  /** Records a new operation. */
  insertOperation(op: Omit<OperationRecord, "id">): void {
    this.db
      .prepare(
        "INSERT INTO cmassh_operations (cluster_id, kind, start_ms, end_ms, outcome, message, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(op.clusterId, op.kind, op.startMs, op.endMs, op.outcome, op.message, JSON.stringify(op.payload));
  }

  /** Unsettled operations whose end time has passed, in the order they ended. */
  dueOperations(nowMs: number): OperationRecord[] {
    return this.db
      .prepare("SELECT * FROM cmassh_operations WHERE settled = 0 AND end_ms <= ? ORDER BY end_ms, id")
      .all(nowMs)
      .map((r) => toOperation(r as Row));
  }

  /** Marks an operation's effects as applied. */
  markSettled(id: number): void {
    this.db.prepare("UPDATE cmassh_operations SET settled = 1 WHERE id = ?").run(id);
  }

  /** Operations of a cluster that have not ended yet. */
  inFlightOperations(clusterId: number): OperationRecord[] {
    return this.db
      .prepare("SELECT * FROM cmassh_operations WHERE cluster_id = ? AND settled = 0 ORDER BY id")
      .all(clusterId)
      .map((r) => toOperation(r as Row));
  }
}
