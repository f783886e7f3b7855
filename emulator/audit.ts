import type { DatabaseSync } from "node:sqlite";
import { type DescMessage, type Message, toJson } from "@bufbuild/protobuf";
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
  /**
   * The request body as JSON (a gRPC message in its JSON form, a REST call's body), secrets
   * replaced by `"[redacted]"`; absent when the call has none or it is too large to keep.
   */
  request?: unknown;
}

/**
 * A gRPC request as the audit keeps it: its JSON form with implicit defaults (a count of 0 shows).
 * A message JSON cannot express (an `Any` of an unknown type) is left out rather than failing the call.
 */
export function requestForAudit(schema: DescMessage, message: Message): unknown {
  try {
    return toJson(schema, message, { alwaysEmitImplicit: true });
  } catch {
    return undefined;
  }
}

/** Keys whose values the audit never keeps: a log is no place for credentials or kubeconfigs. */
const SECRET_KEY = /password|secret|token|credential|kubeconfig|private/i;

/** The most characters of one request body the audit keeps; a larger body is left out. */
export const MAX_AUDIT_REQUEST_CHARS = 16_384;

/** `value` with every secret-named key's value redacted, at any depth. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redactSecrets(v)]));
}

/** The text the audit stores for a request body, or null (none, or too large). */
function requestText(request: unknown): string | null {
  if (request === undefined) return null;
  const text = JSON.stringify(redactSecrets(request));
  return text === undefined || text.length > MAX_AUDIT_REQUEST_CHARS ? null : text;
}

/**
 * How many entries the audit log keeps unless told otherwise: enough for any test run or a long
 * day of polling, small enough (about 12 MB at some 120 bytes a row) that a plane left running
 * for weeks keeps a bounded database.
 */
export const DEFAULT_AUDIT_RETENTION = 100_000;

/** The most entries one trim deletes: a trim then costs well under a millisecond. */
const MAX_TRIM_BATCH = 1000;

/** Options of {@link createAuditLog}. */
export interface AuditLogOptions {
  /**
   * Keep the newest `retention` entries (an integer >= 1); older ones are deleted in batches.
   * @default DEFAULT_AUDIT_RETENTION
   */
  retention?: number;
}

/** Audit log of API calls, kept in SQLite: append-only, trimmed to its newest entries. */
export interface AuditLog {
  /** Appends an entry and returns it with its sequence number. */
  record(entry: Omit<AuditEntry, "seq">): AuditEntry;
  /** Retained entries with `seq` greater than `since`, ascending. */
  listSince(since: number): AuditEntry[];
  /** The newest `count` retained entries, ascending. */
  tail(count: number): AuditEntry[];
  /** Reads the log's bounds again after its table was replaced (a saved plane loaded, a reset). */
  reload(): void;
}

interface AuditRow {
  seq: number;
  time: string;
  api: string;
  operation: string;
  target: string;
  request_id: string;
  code: string;
  request: string | null;
}

/** Checks a retention; throws a RangeError naming the value and what is allowed. */
export function assertAuditRetention(retention: number): void {
  if (!Number.isSafeInteger(retention) || retention < 1) {
    throw new RangeError(`invalid auditRetention ${retention}: expected an integer >= 1`);
  }
}

/**
 * How many entries past the retention accumulate before one trim deletes them: a tenth of the
 * retention, at least 1 and at most {@link MAX_TRIM_BATCH}, so writes never pay for a trim each.
 */
export function trimBatchSize(retention: number): number {
  return Math.min(MAX_TRIM_BATCH, Math.max(1, Math.floor(retention / 10)));
}

/**
 * Creates the audit log on an open database. It keeps the entries whose `seq` is among the newest
 * `retention` sequence numbers: at least `retention` entries once that many were recorded, and at
 * most `retention + trimBatchSize(retention) - 1`. Sequence numbers keep increasing across trims
 * and restarts (AUTOINCREMENT never reuses one). An existing log longer than the retention (a
 * restart with a smaller one) is trimmed at once.
 */
export function createAuditLog(db: DatabaseSync, opts: AuditLogOptions = {}): AuditLog {
  const retention = opts.retention ?? DEFAULT_AUDIT_RETENTION;
  assertAuditRetention(retention);
  const batch = trimBatchSize(retention);
  const insert = db.prepare(
    "INSERT INTO audit (time, api, operation, target, request_id, code, request) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const select = db.prepare("SELECT * FROM audit WHERE seq > ? ORDER BY seq");
  const trim = db.prepare("DELETE FROM audit WHERE seq <= ?");
  const readBounds = () => db.prepare("SELECT MIN(seq) AS oldest, MAX(seq) AS newest FROM audit").get() as { oldest: number | null; newest: number | null };
  const bounds = readBounds();
  // Rows are only ever deleted from the old end, so the oldest retained seq tracks what a trim may delete.
  let oldest = bounds.oldest;
  const trimUpTo = (newest: number, minimum: number): void => {
    const cutoff = newest - retention;
    if (oldest === null || cutoff - oldest + 1 < minimum) return;
    trim.run(cutoff);
    oldest = cutoff + 1;
  };
  if (bounds.newest !== null) trimUpTo(bounds.newest, 1);
  return {
    record(entry) {
      const kept = requestText(entry.request);
      const result = insert.run(entry.time, entry.api, entry.operation, entry.target, entry.requestId, entry.code, kept);
      const seq = Number(result.lastInsertRowid);
      oldest ??= seq;
      trimUpTo(seq, batch);
      const { request: _sent, ...rest } = entry;
      return { seq, ...rest, ...(kept === null ? {} : { request: JSON.parse(kept) }) };
    },
    reload() {
      oldest = readBounds().oldest;
    },
    tail(count) {
      return (db.prepare("SELECT * FROM (SELECT * FROM audit ORDER BY seq DESC LIMIT ?) ORDER BY seq").all(count) as unknown as AuditRow[]).map(toEntry);
    },
    listSince(since) {
      return (select.all(since) as unknown as AuditRow[]).map(toEntry);
    },
  };
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    time: row.time,
    api: row.api,
    operation: row.operation,
    target: row.target,
    requestId: row.request_id,
    code: row.code as GrpcCodeName,
    ...(row.request === null ? {} : { request: JSON.parse(row.request) as unknown }),
  };
}
