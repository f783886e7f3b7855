import * as fs from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Tables for the cma-ssh state and the audit log. Operation times are absolute epoch milliseconds. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS cmassh_clusters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  k8s_version TEXT NOT NULL,
  cp_instance_type TEXT NOT NULL,
  cp_count INTEGER NOT NULL,
  cp_labels TEXT NOT NULL,
  token TEXT NOT NULL,
  provisioned INTEGER NOT NULL DEFAULT 0,
  error_message TEXT NOT NULL DEFAULT '',
  error_at_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS cmassh_pools (
  cluster_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  count INTEGER NOT NULL,
  labels TEXT NOT NULL,
  PRIMARY KEY (cluster_id, name)
);
CREATE TABLE IF NOT EXISTS cmassh_operations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cluster_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}',
  settled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS cmassh_operations_pending ON cmassh_operations (settled, end_ms);
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time TEXT NOT NULL,
  api TEXT NOT NULL,
  operation TEXT NOT NULL,
  target TEXT NOT NULL,
  request_id TEXT NOT NULL,
  code TEXT NOT NULL
);
`;

/**
 * Opens (creating if needed) `<dataDir>/state.db` in WAL mode with the emulator's schema.
 */
export function openDatabase(dataDir: string): DatabaseSync {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(path.join(dataDir, "state.db"));
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");
  db.exec(SCHEMA);
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
