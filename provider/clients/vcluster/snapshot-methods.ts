import type { Client } from "@connectrpc/connect";
import type { SnapshotService } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { type CallOptions, type Caller, goneOnRetry } from "../shared/grpc-caller";
import { onSnapshot } from "./describe";
import { fromSnapshot, isoTime } from "./mapping";
import type { ListSnapshotsFilter, Page, PageRequest } from "./requests";
import type { SnapshotState } from "./types";

/** SnapshotService: list, get and delete. All are retried. */
export interface SnapshotMethods {
  /** ListSnapshots: one page, oldest first. */
  listSnapshots(filter?: ListSnapshotsFilter & PageRequest, options?: CallOptions): Promise<Page<SnapshotState>>;
  /** GetSnapshot by id, or by name with its namespace. Throws NotFound when gone (or expired). */
  getSnapshot(key: { id: string } | { name: string; namespace: string }, options?: CallOptions): Promise<SnapshotState>;
  /** DeleteSnapshot. NotFound on a retry counts as success (returns an empty delete time). */
  deleteSnapshot(id: string, options?: CallOptions & { force?: boolean }): Promise<{ deleteTime: string }>;
}

/** The snapshot methods over a Connect client and the shared caller. */
export function snapshotMethods(rpc: Client<typeof SnapshotService>, { retried }: Caller): SnapshotMethods {
  return {
    listSnapshots: (filter = {}, o) =>
      retried(`ListSnapshots in namespace ${JSON.stringify(filter.namespace ?? "")}`, o, async (c) => {
        const reply = await rpc.listSnapshots(filter, c);
        return { items: reply.snapshots.map(fromSnapshot), nextPageToken: reply.nextPageToken, totalCount: reply.totalCount };
      }),
    getSnapshot: (key, o) =>
      retried(onSnapshot("GetSnapshot", "id" in key ? key.id : `${key.namespace}/${key.name}`), o, async (c) =>
        fromSnapshot((await rpc.getSnapshot(key, c)).snapshot),
      ),
    deleteSnapshot: (id, o) =>
      retried(
        onSnapshot("DeleteSnapshot", id),
        o,
        goneOnRetry(async (c) => ({ deleteTime: isoTime((await rpc.deleteSnapshot({ id, force: o?.force ?? false }, c)).deleteTime) }), { deleteTime: "" }),
      ),
  };
}
