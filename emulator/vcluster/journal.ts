import type { DatabaseSync } from "node:sqlite";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  type CreateVClusterResponse,
  CreateVClusterResponseSchema,
  type VCluster,
  VClusterSchema,
  type WatchEventType,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";

/** One change of a vcluster, as WatchVCluster sends it; `seq` is its resource version. */
export interface StoredEvent {
  seq: number;
  type: WatchEventType;
  vcluster: VCluster;
}

/** One UpdateVCluster call's field mask, as received. */
export interface UpdateMaskRecord {
  /** ISO 8601. */
  time: string;
  namespace: string;
  name: string;
  /** The mask's paths exactly as sent; empty when the call had no mask. */
  paths: string[];
}

/** How long a create's request id is remembered: the design doc asks for at least 24 h. */
export const REQUEST_ID_RETENTION_MS = 24 * 3_600_000;

/** The append-only records: watch events, create request ids, update masks. */
export class Journal {
  constructor(readonly db: DatabaseSync) {}

  /** Reserves the next resource version for an event about `clusterId`; {@link fillEvent} completes it. */
  reserveEvent(clusterId: string, type: WatchEventType): number {
    const result = this.db
      .prepare("INSERT INTO vcluster_events (cluster_id, type, vcluster) VALUES (?, ?, ?)")
      .run(clusterId, type, new Uint8Array());
    return Number(result.lastInsertRowid);
  }

  /** Stores the vcluster an event carries. */
  fillEvent(seq: number, vcluster: VCluster): void {
    this.db.prepare("UPDATE vcluster_events SET vcluster = ? WHERE seq = ?").run(toBinary(VClusterSchema, vcluster), seq);
  }

  /** Events after `seq`, oldest first. */
  eventsAfter(seq: number): StoredEvent[] {
    return this.db
      .prepare("SELECT seq, type, vcluster FROM vcluster_events WHERE seq > ? ORDER BY seq")
      .all(seq)
      .map((row) => ({
        seq: Number(row.seq),
        type: Number(row.type) as WatchEventType,
        vcluster: fromBinary(VClusterSchema, row.vcluster as Uint8Array),
      }));
  }

  /** The latest resource version, 0 before any event. */
  latestSeq(): number {
    return Number(this.db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM vcluster_events").get()?.seq ?? 0);
  }

  /** The remembered answer to a create with this request id, if still kept. */
  findRequest(
    requestId: string,
    nowMs: number,
  ): { namespace: string; name: string; response: CreateVClusterResponse } | undefined {
    const row = this.db
      .prepare("SELECT * FROM vcluster_requests WHERE request_id = ? AND created_ms > ?")
      .get(requestId, nowMs - REQUEST_ID_RETENTION_MS);
    if (!row) return undefined;
    return {
      namespace: String(row.namespace),
      name: String(row.name),
      response: fromBinary(CreateVClusterResponseSchema, row.response as Uint8Array),
    };
  }

  /** Remembers the answer to a create, replacing an expired entry with the same id. */
  rememberRequest(requestId: string, namespace: string, name: string, response: CreateVClusterResponse, nowMs: number): void {
    this.db
      .prepare("INSERT OR REPLACE INTO vcluster_requests (request_id, namespace, name, response, created_ms) VALUES (?, ?, ?, ?, ?)")
      .run(requestId, namespace, name, toBinary(CreateVClusterResponseSchema, response), nowMs);
  }

  /** Records the mask an UpdateVCluster received. */
  recordUpdateMask(nowMs: number, namespace: string, name: string, paths: readonly string[]): void {
    this.db
      .prepare("INSERT INTO vcluster_update_masks (time_ms, namespace, name, paths) VALUES (?, ?, ?, ?)")
      .run(nowMs, namespace, name, JSON.stringify(paths));
  }

  /** Every recorded update mask, oldest first. */
  updateMasks(): UpdateMaskRecord[] {
    return this.db
      .prepare("SELECT * FROM vcluster_update_masks ORDER BY seq")
      .all()
      .map((row) => ({
        time: new Date(Number(row.time_ms)).toISOString(),
        namespace: String(row.namespace),
        name: String(row.name),
        paths: JSON.parse(String(row.paths)) as string[],
      }));
  }
}
