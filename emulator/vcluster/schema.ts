/**
 * vcluster's tables. Every time is absolute epoch milliseconds on the shared clock, so a restart
 * continues every operation where it was. Specs are stored as protobuf binary.
 */
export const VCLUSTER_SCHEMA = `
CREATE TABLE IF NOT EXISTS vcluster_counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS vcluster_clusters (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  namespace TEXT NOT NULL,
  spec BLOB NOT NULL,
  labels TEXT NOT NULL,
  owner TEXT NOT NULL,
  project TEXT NOT NULL,
  token TEXT NOT NULL,
  create_ms INTEGER NOT NULL,
  update_ms INTEGER NOT NULL,
  ready_ms INTEGER NOT NULL DEFAULT 0,
  delete_ms INTEGER NOT NULL DEFAULT 0,
  base_phase INTEGER NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL DEFAULT '',
  generation INTEGER NOT NULL DEFAULT 1,
  last_snapshot_id TEXT NOT NULL DEFAULT '',
  resource_version INTEGER NOT NULL DEFAULT 0,
  UNIQUE (namespace, name)
);
CREATE TABLE IF NOT EXISTS vcluster_workloads (
  cluster_id TEXT PRIMARY KEY,
  pods INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS vcluster_operations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  cluster_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}',
  settled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS vcluster_operations_pending ON vcluster_operations (settled, end_ms);
CREATE TABLE IF NOT EXISTS vcluster_snapshots (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  vcluster_id TEXT NOT NULL,
  vcluster_name TEXT NOT NULL,
  namespace TEXT NOT NULL,
  spec BLOB NOT NULL,
  cluster_labels TEXT NOT NULL,
  labels TEXT NOT NULL,
  description TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  create_ms INTEGER NOT NULL,
  ready_ms INTEGER NOT NULL,
  expire_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  storage_uri TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS vcluster_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  cluster_id TEXT NOT NULL,
  type INTEGER NOT NULL,
  vcluster BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS vcluster_requests (
  request_id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  response BLOB NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS vcluster_update_masks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  time_ms INTEGER NOT NULL,
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  paths TEXT NOT NULL
);
`;
