import { createHash } from "node:crypto";
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { cachedStatement, inTransaction } from "../database";
import { type ActionRecord, type BindingRecord, type ClusterRecord, DERIVED_CAUSE, type EventRecord, hasStarted, type NodeRecord, type PolicyRecord, type ProfileRecord, type ReceiverRecord } from "./records";

/**
 * Senlin's tables: each object is a JSON document with the columns lookups need beside it. Action
 * times are absolute epoch milliseconds, so a restart continues every action where the clock is.
 * Actions pile up for ever (as in Senlin's database), so every per-call query on them goes through
 * an index: `seq` for the next sequence number, `(target, due_ms)` for a target's unfinished
 * actions, and a partial index holding only the unfinished ones (bench/README.md sections 7-8).
 * Indexes only, no new column: a state.db written by an older release opens unchanged. Events
 * are written as actions start and end (a table of their own: a listing reads them, it does not
 * rebuild them); a state.db from before that table gets its events derived once, on open.
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
CREATE TABLE IF NOT EXISTS senlin_events (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, project TEXT NOT NULL, ts_ms INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS senlin_events_id ON senlin_events (id);
CREATE INDEX IF NOT EXISTS senlin_events_project ON senlin_events (project, ts_ms);
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
    /** Called after each update with the object before and after it. */
    private readonly afterUpdate?: (before: T, after: T) => void,
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
    this.afterUpdate?.(current, next);
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
    this.actions = new DocTable(db, "senlin_actions", { target: (a) => a.target, due_ms: (a) => dueMs(a) }, (before, after) => this.recordEvents(before, after));
    this.receivers = new DocTable(db, "senlin_receivers");
    this.deriveMissingEvents();
  }

  /**
   * The events an action's change of status makes: `start` when it starts running, `end` or
   * `error` when it ends. None for a derived action (Senlin's `exclude_derived_actions`, on by default).
   */
  private recordEvents(before: ActionRecord, after: ActionRecord): void {
    if (before.status === after.status || after.cause === DERIVED_CAUSE) return;
    if (after.status === "RUNNING") this.addEvent(startEvent(after, this.objectName(after)));
    if (ENDED.has(after.status) && !ENDED.has(before.status)) {
      // A deleted object's name is gone by the time its delete ends: the start event kept it.
      const oname = this.objectName(after) ?? this.eventById(eventId(after.id, "start"))?.oname;
      this.addEvent(endEvent(after, oname));
    }
  }

  /** The current name of an action's target, if it still exists. */
  private objectName(action: ActionRecord): string | undefined {
    return (action.action.startsWith("NODE_") ? this.nodes.get(action.target) : this.clusters.get(action.target))?.name;
  }

  private addEvent(event: EventRecord): void {
    cachedStatement(this.db, "INSERT OR IGNORE INTO senlin_events (id, project, ts_ms, doc) VALUES (?, ?, ?, ?)").run(event.id, event.project, event.atMs, JSON.stringify(event));
  }

  /**
   * Events of a database written before events were stored: derived once from its actions, as
   * that release showed them (a start for every action that started, an end for every one that ended).
   */
  private deriveMissingEvents(): void {
    if (cachedStatement(this.db, "SELECT 1 AS found FROM senlin_events LIMIT 1").get()) return;
    const started = this.actions.list(undefined).filter((a) => hasStarted(a) && a.cause !== DERIVED_CAUSE);
    if (started.length === 0) return;
    inTransaction(this.db, () => {
      for (const action of started) {
        const oname = this.objectName(action);
        this.addEvent(startEvent(action, oname));
        if (ENDED.has(action.status)) this.addEvent(endEvent(action, oname));
      }
    });
  }

  /** Events of a project (every project when undefined), oldest first. */
  events(project: string | undefined): EventRecord[] {
    const rows =
      project === undefined
        ? cachedStatement(this.db, "SELECT doc FROM senlin_events ORDER BY ts_ms, seq").all()
        : cachedStatement(this.db, "SELECT doc FROM senlin_events WHERE project = ? ORDER BY ts_ms, seq").all(project);
    return rows.map((row) => JSON.parse(String(row.doc)) as EventRecord);
  }

  /** The event with this id, in any project. */
  eventById(id: string): EventRecord | undefined {
    const row = cachedStatement(this.db, "SELECT doc FROM senlin_events WHERE id = ?").get(id);
    return row ? (JSON.parse(String(row.doc)) as EventRecord) : undefined;
  }

  /** Events of a project whose id starts with `prefix` (Senlin's short ids), at most two (enough to tell one from many). */
  eventsByIdPrefix(project: string, prefix: string): EventRecord[] {
    // A range on the unique id index: ids from the prefix up to the prefix followed by the highest character.
    return cachedStatement(this.db, "SELECT doc FROM senlin_events WHERE id >= ? AND id < ? AND project = ? LIMIT 2")
      .all(prefix, `${prefix}\uffff`, project)
      .map((row) => JSON.parse(String(row.doc)) as EventRecord);
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

/**
 * When an action's next change happens: its start while READY to start, its end while RUNNING,
 * WAITING or READY again, never once ended; for one that works through node actions, WAITING at
 * `waitingMs` and READY again at `readyAgainMs` (or its end, when it is to fail) come between.
 */
function dueMs(action: ActionRecord): number | null {
  const waits = action.waitingMs !== undefined;
  if (action.status === "READY") return waits ? action.endMs : action.startMs;
  if (action.status === "RUNNING") return action.waitingMs ?? action.endMs;
  if (action.status === "WAITING") return waits && action.plan.failure === undefined ? (action.readyAgainMs ?? action.endMs) : action.endMs;
  return null;
}

const ENDED = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** A stable event id for an action's phase. */
export function eventId(actionId: string, phase: string): string {
  const hex = createHash("sha256").update(`${actionId}:${phase}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** An action's start event: Senlin's dispatcher gives the action's short id as its reason. */
function startEvent(action: ActionRecord, oname: string | undefined): EventRecord {
  return eventOf(action, "start", action.startMs, action.id.slice(0, 8), oname);
}

/** An action's end (`end`, with its handler's reason) or error event (with the action's). */
function endEvent(action: ActionRecord, oname: string | undefined): EventRecord {
  const succeeded = action.status === "SUCCEEDED";
  return eventOf(action, succeeded ? "end" : "error", action.endMs, succeeded ? (action.handlerReason ?? action.statusReason) : action.statusReason, oname);
}

function eventOf(action: ActionRecord, phase: EventRecord["phase"], atMs: number, reason: string, oname: string | undefined): EventRecord {
  return {
    id: eventId(action.id, phase),
    atMs,
    user: action.user,
    project: action.project,
    actionId: action.id,
    action: action.action,
    clusterId: action.clusterId,
    oid: action.target,
    oname: oname ?? "",
    otype: action.action.startsWith("NODE_") ? "NODE" : "CLUSTER",
    phase,
    reason,
  };
}
