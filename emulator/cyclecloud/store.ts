import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { ClusterDefinition } from "./definitions";
import type { NodeState, NodeTransition } from "./lifecycle";

/** A stored node. Its current state is `state` unless a transition is in flight. */
export interface NodeRow {
  id: string;
  /** Creation order within the server, for stable listings. */
  seq: number;
  cluster: string;
  name: string;
  nodearray: string;
  machineType: string;
  ip: string;
  placementGroup: string;
  /** Node-record attributes: the nodearray's, overlaid by the request's `nodeAttributes`. */
  attributes: Record<string, unknown>;
  requestId: string;
  createdMs: number;
  state: NodeState;
  statusMessage: string;
  /** The transition in flight. @default undefined (resting in `state`) */
  transition?: NodeTransition;
  /** When a `preempt-node` fault evicts the node. @default undefined (never) */
  preemptAtMs?: number;
  /** When the node last failed to start (a capacity failure). @default undefined (never) */
  failedMs?: number;
  /** When the record was removed; removed nodes are kept for history only. @default undefined (present) */
  removedMs?: number;
}

/** A stored operation. */
export interface OperationRow {
  id: string;
  cluster: string;
  /** `create` for creation and scale; otherwise the management action's name. */
  action: string;
  /** The caller's idempotency token. @default undefined (none given) */
  requestId?: string;
  startMs: number;
}

/** One span during which a node's VM was billed; `endMs` is absent while it still is. */
export interface UsageRow {
  nodeId: string;
  cluster: string;
  nodearray: string;
  machineType: string;
  coreCount: number;
  region: string;
  spot: boolean;
  startMs: number;
  /** When billing stopped. @default undefined (still billed) */
  endMs?: number;
}

type Row = Record<string, SQLInputValue>;

const optionalNumber = (v: SQLInputValue): number | undefined => (v === null || v === undefined ? undefined : Number(v));

function toNode(row: Row): NodeRow {
  return {
    id: String(row.id),
    seq: Number(row.seq),
    cluster: String(row.cluster),
    name: String(row.name),
    nodearray: String(row.nodearray),
    machineType: String(row.machine_type),
    ip: String(row.ip),
    placementGroup: String(row.placement_group),
    attributes: JSON.parse(String(row.attributes)) as Record<string, unknown>,
    requestId: String(row.request_id),
    createdMs: Number(row.created_ms),
    state: String(row.state) as NodeState,
    statusMessage: String(row.status_message),
    transition: row.transition ? (JSON.parse(String(row.transition)) as NodeTransition) : undefined,
    preemptAtMs: optionalNumber(row.preempt_at_ms),
    failedMs: optionalNumber(row.failed_ms),
    removedMs: optionalNumber(row.removed_ms),
  };
}

function toOperation(row: Row): OperationRow {
  const requestId = row.request_id === null ? undefined : String(row.request_id);
  return { id: String(row.id), cluster: String(row.cluster), action: String(row.action), requestId, startMs: Number(row.start_ms) };
}

function toUsage(row: Row): UsageRow {
  return {
    nodeId: String(row.node_id),
    cluster: String(row.cluster),
    nodearray: String(row.nodearray),
    machineType: String(row.machine_type),
    coreCount: Number(row.core_count),
    region: String(row.region),
    spot: Number(row.spot) === 1,
    startMs: Number(row.start_ms),
    endMs: optionalNumber(row.end_ms),
  };
}

/** The next value of a per-table creation counter. */
function nextSeq(db: DatabaseSync, table: string): number {
  return Number((db.prepare(`SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${table}`).get() as Row).n);
}

/** SQL access to CycleCloud clusters, nodes, operations and usage. */
export class CycleCloudStore {
  constructor(readonly db: DatabaseSync) {}

  /** A flag or value kept across restarts (e.g. whether the demo cluster was seeded). */
  meta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM cyclecloud_meta WHERE key = ?").get(key) as Row | undefined;
    return row ? String(row.value) : undefined;
  }

  /** Sets a meta value. */
  setMeta(key: string, value: string): void {
    this.db.prepare("INSERT INTO cyclecloud_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  /** The cluster named `name`, if defined. */
  findCluster(name: string): ClusterDefinition | undefined {
    const row = this.db.prepare("SELECT definition FROM cyclecloud_clusters WHERE name = ?").get(name) as Row | undefined;
    return row ? (JSON.parse(String(row.definition)) as ClusterDefinition) : undefined;
  }

  /** Every defined cluster, by name. */
  listClusters(): ClusterDefinition[] {
    return this.db
      .prepare("SELECT definition FROM cyclecloud_clusters ORDER BY name")
      .all()
      .map((r) => JSON.parse(String((r as Row).definition)) as ClusterDefinition);
  }

  /** Defines a cluster, replacing the definition of the same name; its nodes stay. */
  putCluster(definition: ClusterDefinition): void {
    this.db
      .prepare("INSERT INTO cyclecloud_clusters (name, definition) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET definition = excluded.definition")
      .run(definition.name, JSON.stringify(definition));
  }

  /** Deletes a cluster with its nodes at `nowMs`, ending their billing; operations and usage stay as history. */
  deleteCluster(name: string, nowMs: number): boolean {
    for (const node of this.listNodes(name)) this.endUsage(node.id, nowMs);
    this.db.prepare("DELETE FROM cyclecloud_nodes WHERE cluster = ?").run(name);
    return Number(this.db.prepare("DELETE FROM cyclecloud_clusters WHERE name = ?").run(name).changes) > 0;
  }

  /** Nodes of a cluster whose record has not been removed, oldest first. @param cluster - @default every cluster */
  listNodes(cluster?: string): NodeRow[] {
    const sql = "SELECT * FROM cyclecloud_nodes WHERE removed_ms IS NULL AND (? IS NULL OR cluster = ?) ORDER BY seq";
    return this.db
      .prepare(sql)
      .all(cluster ?? null, cluster ?? null)
      .map((r) => toNode(r as Row));
  }

  /** Every node of a cluster ever created, removed ones included, oldest first. */
  listNodesEver(cluster: string): NodeRow[] {
    return this.db
      .prepare("SELECT * FROM cyclecloud_nodes WHERE cluster = ? ORDER BY seq")
      .all(cluster)
      .map((r) => toNode(r as Row));
  }

  /** Inserts a new node. */
  insertNode(node: Omit<NodeRow, "seq">): void {
    this.db
      .prepare(
        `INSERT INTO cyclecloud_nodes (id, seq, cluster, name, nodearray, machine_type, ip, placement_group, attributes, request_id,
         created_ms, state, status_message, transition, transition_end_ms, preempt_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        node.id,
        nextSeq(this.db, "cyclecloud_nodes"),
        node.cluster,
        node.name,
        node.nodearray,
        node.machineType,
        node.ip,
        node.placementGroup,
        JSON.stringify(node.attributes),
        node.requestId,
        node.createdMs,
        node.state,
        node.statusMessage,
        node.transition ? JSON.stringify(node.transition) : null,
        node.transition?.endMs ?? null,
        node.preemptAtMs ?? null,
      );
  }

  /**
   * Starts a transition on a node. A pending preemption is dropped with it, and so is a billing
   * span that has not begun (the VM the interrupted start was acquiring never gets billed).
   */
  setTransition(id: string, transition: NodeTransition): void {
    this.db.prepare("DELETE FROM cyclecloud_usage WHERE node_id = ? AND end_ms IS NULL AND start_ms > ?").run(id, transition.startMs);
    this.db
      .prepare("UPDATE cyclecloud_nodes SET transition = ?, transition_end_ms = ?, preempt_at_ms = NULL WHERE id = ?")
      .run(JSON.stringify(transition), transition.endMs, id);
  }

  /** Rests a node in `state`, ending its transition; a pending preemption stays. */
  settleNode(id: string, fields: { state: NodeState; statusMessage: string; failedMs?: number; removedMs?: number }): void {
    this.db
      .prepare(
        `UPDATE cyclecloud_nodes SET state = ?, status_message = ?, transition = NULL, transition_end_ms = NULL,
         failed_ms = COALESCE(?, failed_ms), removed_ms = ? WHERE id = ?`,
      )
      .run(fields.state, fields.statusMessage, fields.failedMs ?? null, fields.removedMs ?? null, id);
  }

  /** Gives a node a new private IP (a terminated node started on a new VM and network interface). */
  setNodeIp(id: string, ip: string): void {
    this.db.prepare("UPDATE cyclecloud_nodes SET ip = ? WHERE id = ?").run(ip, id);
  }

  /** Plans a node's preemption at `atMs`. */
  setPreemption(id: string, atMs: number): void {
    this.db.prepare("UPDATE cyclecloud_nodes SET preempt_at_ms = ? WHERE id = ?").run(atMs, id);
  }

  /** Drops a node's pending preemption. */
  clearPreemption(id: string): void {
    this.db.prepare("UPDATE cyclecloud_nodes SET preempt_at_ms = NULL WHERE id = ?").run(id);
  }

  /** Nodes whose transition has ended by `nowMs`, in the order they ended. */
  dueTransitions(nowMs: number): NodeRow[] {
    return this.db
      .prepare("SELECT * FROM cyclecloud_nodes WHERE transition_end_ms <= ? ORDER BY transition_end_ms, seq")
      .all(nowMs)
      .map((r) => toNode(r as Row));
  }

  /** Resting nodes whose preemption time has come by `nowMs`. */
  duePreemptions(nowMs: number): NodeRow[] {
    return this.db
      .prepare("SELECT * FROM cyclecloud_nodes WHERE transition IS NULL AND preempt_at_ms <= ? ORDER BY preempt_at_ms, seq")
      .all(nowMs)
      .map((r) => toNode(r as Row));
  }

  /** Records an operation; the request id, when given, must be new (the caller checks). */
  insertOperation(op: OperationRow): void {
    this.db
      .prepare("INSERT INTO cyclecloud_operations (id, seq, cluster, action, request_id, start_ms) VALUES (?, ?, ?, ?, ?, ?)")
      .run(op.id, nextSeq(this.db, "cyclecloud_operations"), op.cluster, op.action, op.requestId ?? null, op.startMs);
  }

  /** Links nodes to the operation that changed them. */
  linkNodes(operationId: string, nodeIds: readonly string[]): void {
    const insert = this.db.prepare("INSERT OR IGNORE INTO cyclecloud_operation_nodes (operation_id, node_id) VALUES (?, ?)");
    for (const id of nodeIds) insert.run(operationId, id);
  }

  /** The operation with this id, if any. */
  findOperation(id: string): OperationRow | undefined {
    const row = this.db.prepare("SELECT * FROM cyclecloud_operations WHERE id = ?").get(id) as Row | undefined;
    return row ? toOperation(row) : undefined;
  }

  /** The operation a request id created, if any. */
  findOperationByRequestId(requestId: string): OperationRow | undefined {
    const row = this.db.prepare("SELECT * FROM cyclecloud_operations WHERE request_id = ?").get(requestId) as Row | undefined;
    return row ? toOperation(row) : undefined;
  }

  /** Every operation, oldest first. */
  listOperations(): OperationRow[] {
    return this.db
      .prepare("SELECT * FROM cyclecloud_operations ORDER BY seq")
      .all()
      .map((r) => toOperation(r as Row));
  }

  /** The ids of the nodes an operation changed, in the order they were linked. */
  operationNodeIds(operationId: string): string[] {
    return this.db
      .prepare("SELECT node_id FROM cyclecloud_operation_nodes WHERE operation_id = ? ORDER BY rowid")
      .all(operationId)
      .map((r) => String((r as Row).node_id));
  }

  /** Opens a billing span. */
  startUsage(usage: Omit<UsageRow, "endMs">): void {
    this.db
      .prepare(
        "INSERT INTO cyclecloud_usage (node_id, cluster, nodearray, machine_type, core_count, region, spot, start_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(usage.nodeId, usage.cluster, usage.nodearray, usage.machineType, usage.coreCount, usage.region, Number(usage.spot), usage.startMs);
  }

  /** Closes a node's open billing span at `endMs`; a span that would not have begun by then is dropped. */
  endUsage(nodeId: string, endMs: number): void {
    this.db.prepare("DELETE FROM cyclecloud_usage WHERE node_id = ? AND end_ms IS NULL AND start_ms >= ?").run(nodeId, endMs);
    this.db.prepare("UPDATE cyclecloud_usage SET end_ms = ? WHERE node_id = ? AND end_ms IS NULL").run(endMs, nodeId);
  }

  /** Billing spans of a cluster that overlap `[fromMs, toMs)`. */
  usageBetween(cluster: string, fromMs: number, toMs: number): UsageRow[] {
    return this.db
      .prepare("SELECT * FROM cyclecloud_usage WHERE cluster = ? AND start_ms < ? AND (end_ms IS NULL OR end_ms > ?) ORDER BY id")
      .all(cluster, toMs, fromMs)
      .map((r) => toUsage(r as Row));
  }
}
