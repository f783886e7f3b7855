import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { z } from "zod";

/** The `format` every saved plane carries. */
export const STATE_FORMAT = "clusterform-local-state";
/** The version of the saved plane's layout this release writes and reads. */
export const STATE_VERSION = 1;

/**
 * Tables a save leaves out and a load or reset leaves alone: what belongs to the running process,
 * not to the platforms' world. Keystone tokens already handed out stay valid (clients keep
 * working across a reset), and the API servers' bookkeeping follows the clusters by itself.
 */
const PROCESS_TABLES: ReadonlySet<string> = new Set(["keystone_tokens", "kubernetes_api_servers", "kubernetes_processes"]);

/** A SQLite value as JSON carries it: BLOBs as `{"$base64": "..."}`. */
type JsonCell = string | number | null | { $base64: string };

/** One saved table: its column names and its rows, in rowid order. */
export interface SavedTable {
  columns: string[];
  rows: JsonCell[][];
}

/** A saved plane: every platform's objects, operations in flight, the audit log, the id counters. */
export interface SavedState {
  format: typeof STATE_FORMAT;
  version: number;
  /** When it was saved, ISO 8601. */
  savedAt: string;
  tables: Record<string, SavedTable>;
}

const cell = z.union([z.string(), z.number(), z.null(), z.strictObject({ $base64: z.string() })]);
const savedState = z.strictObject({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  savedAt: z.string(),
  tables: z.record(z.string(), z.strictObject({ columns: z.array(z.string()).min(1), rows: z.array(z.array(cell)) })),
});

/** Thrown for a state document that cannot be loaded; the message names the field or table. */
export class StateFileError extends Error {}

function userTables(db: DatabaseSync): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[])
    .map((r) => r.name)
    .filter((name) => !PROCESS_TABLES.has(name));
}

function columnsOf(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

function toJsonCell(value: unknown): JsonCell {
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString("base64") };
  if (typeof value === "bigint") return Number(value);
  return value as JsonCell;
}

function fromJsonCell(value: JsonCell): SQLInputValue {
  return value !== null && typeof value === "object" ? new Uint8Array(Buffer.from(value.$base64, "base64")) : value;
}

/** The whole plane as one JSON-serialisable document (read in one transaction, so it is consistent). */
export function saveState(db: DatabaseSync, nowMs: number): SavedState {
  const tables: Record<string, SavedTable> = {};
  db.exec("BEGIN");
  try {
    for (const table of userTables(db)) {
      const columns = columnsOf(db, table);
      const rows = db.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${table}" ORDER BY rowid`).all() as Record<string, unknown>[];
      tables[table] = { columns, rows: rows.map((row) => columns.map((c) => toJsonCell(row[c]))) };
    }
    // The AUTOINCREMENT counters, so ids and audit sequence numbers continue where they were.
    const sequences = db.prepare("SELECT name, seq FROM sqlite_sequence ORDER BY name").all() as { name: string; seq: number }[];
    tables.sqlite_sequence = { columns: ["name", "seq"], rows: sequences.filter((s) => !PROCESS_TABLES.has(s.name)).map((s) => [s.name, s.seq]) };
  } finally {
    db.exec("COMMIT");
  }
  return { format: STATE_FORMAT, version: STATE_VERSION, savedAt: new Date(nowMs).toISOString(), tables };
}

/** Validates a state document; throws a {@link StateFileError} naming the first bad field. */
export function parseSavedState(doc: unknown): SavedState {
  const result = savedState.safeParse(doc);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length > 0 ? `field "${issue.path.join(".")}"` : "document";
    throw new StateFileError(`invalid saved state: ${where}: ${issue.message}`);
  }
  return result.data as SavedState;
}

function emptyTables(db: DatabaseSync, tables: readonly string[]): void {
  for (const table of tables) db.exec(`DELETE FROM "${table}"`);
}

/**
 * Replaces the plane's world with a saved one, in one transaction: every table is emptied, then
 * filled with the saved rows (columns a newer release added take their defaults; a saved table or
 * column this release does not know is refused, naming it).
 */
export function loadState(db: DatabaseSync, state: SavedState): void {
  const tables = userTables(db);
  const known = new Set(tables);
  for (const [table, saved] of Object.entries(state.tables)) {
    if (table === "sqlite_sequence") continue;
    if (!known.has(table)) throw new StateFileError(`invalid saved state: table "${table}" is not one this plane has (saved by another release?)`);
    const columns = new Set(columnsOf(db, table));
    const unknown = saved.columns.find((c) => !columns.has(c));
    if (unknown !== undefined) throw new StateFileError(`invalid saved state: table "${table}" has column "${unknown}", which this plane's table lacks`);
    const bad = saved.rows.findIndex((row) => row.length !== saved.columns.length);
    if (bad >= 0) throw new StateFileError(`invalid saved state: field "tables.${table}.rows.${bad}": ${saved.rows[bad].length} values for ${saved.columns.length} columns`);
  }
  db.exec("BEGIN IMMEDIATE");
  try {
    emptyTables(db, tables);
    for (const [table, saved] of Object.entries(state.tables)) {
      if (table === "sqlite_sequence") continue;
      const insert = db.prepare(`INSERT INTO "${table}" (${saved.columns.map((c) => `"${c}"`).join(", ")}) VALUES (${saved.columns.map(() => "?").join(", ")})`);
      for (const row of saved.rows) insert.run(...row.map(fromJsonCell));
    }
    for (const [name, seq] of (state.tables.sqlite_sequence?.rows ?? []) as [string, number][]) {
      if (!known.has(name)) continue;
      db.prepare("DELETE FROM sqlite_sequence WHERE name = ?").run(name);
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(name, seq);
    }
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Empties every platform's tables and the audit log in one transaction. The id counters are kept,
 * so ids and audit sequence numbers never repeat within one data folder.
 */
export function resetState(db: DatabaseSync): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    emptyTables(db, userTables(db));
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
