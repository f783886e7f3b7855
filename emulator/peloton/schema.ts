/**
 * Peloton's tables. Every time is absolute epoch milliseconds and pod state is derived from those
 * times at read time, so a restart continues every pod and workflow where the clock says it is.
 */
export const PELOTON_SCHEMA = `
CREATE TABLE IF NOT EXISTS peloton_respools (
  id TEXT PRIMARY KEY,
  parent_id TEXT,
  name TEXT NOT NULL,
  spec BLOB NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS peloton_jobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  respool_id TEXT NOT NULL,
  config_version INTEGER NOT NULL,
  desired_state_version INTEGER NOT NULL,
  workflow_version INTEGER NOT NULL,
  desired_state TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  secrets TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS peloton_job_configs (
  job_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  spec BLOB NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (job_id, version)
);
CREATE TABLE IF NOT EXISTS peloton_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL,
  instance_id INTEGER NOT NULL,
  run_number INTEGER NOT NULL,
  config_version INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  admitted_ms INTEGER,
  instant INTEGER NOT NULL DEFAULT 0,
  fails INTEGER NOT NULL DEFAULT 0,
  kill_ms INTEGER,
  end_ms INTEGER,
  handover INTEGER NOT NULL DEFAULT 0,
  failure_handled INTEGER NOT NULL DEFAULT 0,
  failure_count INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  demand TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS peloton_runs_job ON peloton_runs (job_id, instance_id, id);
CREATE TABLE IF NOT EXISTS peloton_workflows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS peloton_meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
`;
