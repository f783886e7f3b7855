import type { DatabaseSync } from "node:sqlite";
import type { GrpcCodeName } from "./grpc-codes";

/** One API call as the audit log records it. */
export interface AuditEntry {
  /** Position in the log, strictly increasing. */
  seq: number;
  /** When the call was received, ISO 8601. */
  time: string;
  /** Which emulated API received the call, e.g. `"cmassh"`. */
  api: string;
  /** RPC method name; REST calls record the RPC they map to. */
  operation: string;
  /** Cluster name, `"cluster/pool"` for single-pool calls, or `""`. */
  target: string;
  /** The `x-request-id` header, or a generated id. */
  requestId: string;
  /** `"OK"` or the gRPC code name the call ended with. */
  code: GrpcCodeName;
}

/** Append-only audit log of API calls, kept in SQLite. */
export interface AuditLog {
  /** Appends an entry and returns it with its sequence number. */
  record(entry: Omit<AuditEntry, "seq">): AuditEntry;
  /** Entries with `seq` greater than `since`, ascending. */
  listSince(since: number): AuditEntry[];
}

interface AuditRow {
  seq: number;
  time: string;
  api: string;
  operation: string;
  target: string;
  request_id: string;
  code: string;
}

/** Creates the audit log on an open database. */
export function createAuditLog(db: DatabaseSync): AuditLog {
  const insert = db.prepare(
    "INSERT INTO audit (time, api, operation, target, request_id, code) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const select = db.prepare("SELECT * FROM audit WHERE seq > ? ORDER BY seq");
  return {
    record(entry) {
      const result = insert.run(entry.time, entry.api, entry.operation, entry.target, entry.requestId, entry.code);
      return { seq: Number(result.lastInsertRowid), ...entry };
    },
    listSince(since) {
      return (select.all(since) as unknown as AuditRow[]).map((row) => ({
        seq: row.seq,
        time: row.time,
        api: row.api,
        operation: row.operation,
        target: row.target,
        requestId: row.request_id,
        code: row.code as GrpcCodeName,
      }));
    },
  };
}
