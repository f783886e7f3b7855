import * as fs from "node:fs";
import * as path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";

/** The shared tables: the audit log and the plane's own notes (whether its seed was applied). Each platform module brings its own tables (`schema`). */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time TEXT NOT NULL,
  api TEXT NOT NULL,
  operation TEXT NOT NULL,
  target TEXT NOT NULL,
  request_id TEXT NOT NULL,
  code TEXT NOT NULL,
  request TEXT
);
CREATE TABLE IF NOT EXISTS plane_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Columns added to the shared tables since their first release, for a database an older plane wrote. */
const ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [{ table: "audit", column: "request", type: "TEXT" }];

function addMissingColumns(db: DatabaseSync): void {
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/**
 * Opens (creating if needed) `<dataDir>/state.db` in WAL mode with the shared tables.
 */
export function openDatabase(dataDir: string): DatabaseSync {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(path.join(dataDir, "state.db"));
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");
  db.exec(SCHEMA);
  addMissingColumns(db);
  return db;
}

/** Runs `fn` inside one transaction, rolling back if it throws. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/** Prepared statements by SQL text, per database. */
const STATEMENTS = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The prepared statement for `sql` on `db`, compiled on first use and reused after: a hot path
 * (every call's token check, every Senlin lookup) then does not compile its SQL again per call.
 * For SQL texts from a fixed set only (parameters as `?`), or the cache grows without bound.
 */
export function cachedStatement(db: DatabaseSync, sql: string): StatementSync {
  let cache = STATEMENTS.get(db);
  if (!cache) {
    cache = new Map();
    STATEMENTS.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
