import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { cachedStatement } from "../database";
import type { ActionRecord, BindingRecord, ClusterRecord, NodeRecord, PolicyRecord, ProfileRecord, ReceiverRecord } from "./records";

/**
 * Senlin's tables: each object is a JSON document with the columns lookups need beside it. Action
 * times are absolute epoch milliseconds, so a restart continues every action where the clock is.
 * Actions pile up for ever (as in Senlin's database), so every per-call query on them goes through
 * an index: `seq` for the next sequence number, `(target, due_ms)` for a target's unfinished
 * actions, and a partial index holding only the unfinished ones (bench/README.md sections 7-8).
 * Indexes only, no new column: a state.db written by an older release opens unchanged.
 */
export const SENLIN_SCHEMA = `
CREATE TABLE IF NOT EXISTS senlin_profiles (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS senlin_policies (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS senlin_clusters (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS senlin_nodes (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, cluster_id TEXT NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS senlin_receivers (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS senlin_bindings (cluster_id TEXT NOT NULL, policy_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (cluster_id, policy_id));
CREATE TABLE IF NOT EXISTS senlin_actions (id TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, target TEXT NOT NULL, due_ms INTEGER, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS senlin_actions_due ON senlin_actions (due_ms);
CREATE INDEX IF NOT EXISTS senlin_nodes_cluster ON senlin_nodes (cluster_id);
CREATE INDEX IF NOT EXISTS senlin_actions_target ON senlin_actions (target, due_ms);
CREATE INDEX IF NOT EXISTS senlin_actions_active ON senlin_actions (seq) WHERE due_ms IS NOT NULL;
${["profiles", "policies", "clusters", "nodes", "actions", "receivers"].map((t) => `CREATE INDEX IF NOT EXISTS senlin_${t}_seq ON senlin_${t} (seq);`).join("\n")}
`;

/** An object with the columns every document table shares. */
interface Doc {
  id: string;
  project: string;
  name: string;
}

/** Extra indexed columns a table derives from its documents. */
type Columns<T> = Readonly<Record<string, (doc: T) => SQLInputValue>>;

/** One document table: CRUD and the lookups Senlin's `find` needs, always within one project. */
export class DocTable<T extends Doc> {
  private readonly extra: string[];

  constructor(
    private readonly db: DatabaseSync,
    readonly table: string,
    private readonly columns: Columns<T> = {},
  ) {
    this.extra = Object.keys(columns);
  }

  private rows(where: string, ...params: SQLInputValue[]): T[] {
    return cachedStatement(this.db, `SELECT doc FROM ${this.table} WHERE ${where} ORDER BY seq`)
      .all(...params)
      .map((row) => JSON.parse(String(row.doc)) as T);
  }

  /** The object with this id in any project. */
  get(id: string): T | undefined {
    return this.rows("id = ?", id)[0];
  }

  /** Objects of a project (every project when undefined), oldest first. */
  list(project: string | undefined, where = "1 = 1", ...params: SQLInputValue[]): T[] {
    return project === undefined ? this.rows(where, ...params) : this.rows(`project = ? AND (${where})`, project, ...params);
  }

  /** Objects of a project with exactly this name. */
  byName(project: string, name: string): T[] {
    return this.list(project, "name = ?", name);
  }

  /** Objects of a project whose id starts with `prefix` (Senlin's short ids). */
  byIdPrefix(project: string, prefix: string): T[] {
    return this.list(project, "substr(id, 1, ?) = ?", prefix.length, prefix);
  }

  /** Stores a new object after all others. */
  insert(doc: T): void {
    const seq = Number(cachedStatement(this.db, `SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM ${this.table}`).get()?.next ?? 1);
    const names = ["id", "project", "name", "seq", ...this.extra, "doc"];
    const values = [doc.id, doc.project, doc.name, seq, ...this.extra.map((c) => this.columns[c](doc)), JSON.stringify(doc)];
    cachedStatement(this.db, `INSERT INTO ${this.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).run(...values);
  }

  /** Replaces a stored object with a changed copy and returns it. */
  update(id: string, change: (doc: T) => T): T | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = change(current);
    const sets = ["name = ?", ...this.extra.map((c) => `${c} = ?`), "doc = ?"];
    const values = [next.name, ...this.extra.map((c) => this.columns[c](next)), JSON.stringify(next), id];
    cachedStatement(this.db, `UPDATE ${this.table} SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    return next;
  }

  /** Removes an object. */
  delete(id: string): void {
    cachedStatement(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(id);
  }
}

/** Senlin's state. */
export class SenlinStore {
  readonly profiles: DocTable<ProfileRecord>;
  readonly policies: DocTable<PolicyRecord>;
  readonly clusters: DocTable<ClusterRecord>;
  readonly nodes: DocTable<NodeRecord>;
  readonly actions: DocTable<ActionRecord>;
  readonly receivers: DocTable<ReceiverRecord>;

  constructor(readonly db: DatabaseSync) {
    this.profiles = new DocTable(db, "senlin_profiles");
    this.policies = new DocTable(db, "senlin_policies");
    this.clusters = new DocTable(db, "senlin_clusters");
    this.nodes = new DocTable(db, "senlin_nodes", { cluster_id: (n) => n.clusterId });
    this.actions = new DocTable(db, "senlin_actions", { target: (a) => a.target, due_ms: (a) => dueMs(a) });
    this.receivers = new DocTable(db, "senlin_receivers");
  }

  /** Members of a cluster, by index. */
  members(clusterId: string): NodeRecord[] {
    return this.nodes.list(undefined, "cluster_id = ?", clusterId).sort((a, b) => a.index - b.index);
  }

  /** Policy bindings of a cluster, oldest first. */
  bindings(clusterId: string): BindingRecord[] {
    return cachedStatement(this.db, "SELECT doc FROM senlin_bindings WHERE cluster_id = ? ORDER BY rowid")
      .all(clusterId)
      .map((row) => JSON.parse(String(row.doc)) as BindingRecord);
  }

  /** Clusters a policy is attached to. */
  clustersOfPolicy(policyId: string): string[] {
    return cachedStatement(this.db, "SELECT cluster_id FROM senlin_bindings WHERE policy_id = ?").all(policyId).map((r) => String(r.cluster_id));
  }

  /** Adds or replaces a binding. */
  putBinding(binding: BindingRecord): void {
    cachedStatement(this.db, "INSERT OR REPLACE INTO senlin_bindings (cluster_id, policy_id, doc) VALUES (?, ?, ?)").run(binding.clusterId, binding.policyId, JSON.stringify(binding));
  }

  /** Removes a binding. */
  deleteBinding(clusterId: string, policyId: string): void {
    cachedStatement(this.db, "DELETE FROM senlin_bindings WHERE cluster_id = ? AND policy_id = ?").run(clusterId, policyId);
  }

  /** Actions that have not ended on a cluster or on one of its nodes (the partial index holds only unfinished ones). */
  activeActionsOn(clusterId: string): ActionRecord[] {
    return this.actions.list(undefined, "due_ms IS NOT NULL AND (target = ? OR json_extract(doc, '$.clusterId') = ?)", clusterId, clusterId);
  }

  /** Actions that have not ended, on a target. */
  activeActions(target: string): ActionRecord[] {
    return this.actions.list(undefined, "target = ? AND due_ms IS NOT NULL", target);
  }

  /** The action whose next event (start or end) is due first at or before `nowMs`. */
  nextDueAction(nowMs: number): ActionRecord | undefined {
    const row = cachedStatement(this.db, "SELECT doc FROM senlin_actions WHERE due_ms IS NOT NULL AND due_ms <= ? ORDER BY due_ms, seq LIMIT 1").get(nowMs);
    return row ? (JSON.parse(String(row.doc)) as ActionRecord) : undefined;
  }
}

/** When an action's next event happens: its start while READY, its end while RUNNING, never once ended. */
function dueMs(action: ActionRecord): number | null {
  if (action.status === "READY") return action.startMs;
  if (action.status === "RUNNING") return action.endMs;
  return null;
}
