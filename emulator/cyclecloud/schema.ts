/** CycleCloud's tables. Every time is absolute epoch milliseconds, so state survives restarts. */
export const CYCLECLOUD_SCHEMA = `
CREATE TABLE IF NOT EXISTS cyclecloud_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cyclecloud_clusters (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cyclecloud_nodes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  cluster TEXT NOT NULL,
  name TEXT NOT NULL,
  nodearray TEXT NOT NULL,
  machine_type TEXT NOT NULL,
  ip TEXT NOT NULL,
  placement_group TEXT NOT NULL,
  attributes TEXT NOT NULL,
  request_id TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  status_message TEXT NOT NULL DEFAULT '',
  transition TEXT,
  transition_end_ms INTEGER,
  preempt_at_ms INTEGER,
  failed_ms INTEGER,
  removed_ms INTEGER
);
CREATE INDEX IF NOT EXISTS cyclecloud_nodes_due ON cyclecloud_nodes (transition_end_ms);
CREATE TABLE IF NOT EXISTS cyclecloud_operations (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  cluster TEXT NOT NULL,
  action TEXT NOT NULL,
  request_id TEXT UNIQUE,
  start_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cyclecloud_operation_nodes (
  operation_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  PRIMARY KEY (operation_id, node_id)
);
CREATE TABLE IF NOT EXISTS cyclecloud_usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id TEXT NOT NULL,
  cluster TEXT NOT NULL,
  nodearray TEXT NOT NULL,
  machine_type TEXT NOT NULL,
  core_count INTEGER NOT NULL,
  region TEXT NOT NULL,
  spot INTEGER NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER
);
`;
