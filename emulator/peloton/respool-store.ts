import type { DatabaseSync } from "node:sqlite";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type ResourcePoolSpec, ResourcePoolSpecSchema } from "../../proto/gen/peloton/api/v1alpha/respool/respool_pb";

/** The id of the pool at the top of the tree, path `/`. */
export const ROOT_POOL_ID = "root";

/** A stored resource pool. */
export interface RespoolRecord {
  id: string;
  /** Null only for the root pool. */
  parentId: string | null;
  name: string;
  spec: ResourcePoolSpec;
  createdMs: number;
}

type Row = Record<string, unknown>;

function toRespool(row: Row): RespoolRecord {
  return {
    id: String(row.id),
    parentId: row.parent_id === null ? null : String(row.parent_id),
    name: String(row.name),
    spec: fromBinary(ResourcePoolSpecSchema, row.spec as Uint8Array),
    createdMs: Number(row.created_ms),
  };
}

/** SQL access to resource pools. */
export class RespoolStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Creates the root pool unless it exists; it has no limits. */
  ensureRoot(nowMs: number): void {
    const spec = create(ResourcePoolSpecSchema, { name: ROOT_POOL_ID });
    this.db
      .prepare("INSERT OR IGNORE INTO peloton_respools (id, parent_id, name, spec, created_ms) VALUES (?, NULL, ?, ?, ?)")
      .run(ROOT_POOL_ID, ROOT_POOL_ID, toBinary(ResourcePoolSpecSchema, spec), nowMs);
  }

  /** The pool with this id, if stored. */
  find(id: string): RespoolRecord | undefined {
    const row = this.db.prepare("SELECT * FROM peloton_respools WHERE id = ?").get(id);
    return row ? toRespool(row as Row) : undefined;
  }

  /** Every pool, root first, then by creation. */
  list(): RespoolRecord[] {
    return this.db
      .prepare("SELECT * FROM peloton_respools ORDER BY parent_id IS NOT NULL, created_ms, id")
      .all()
      .map((r) => toRespool(r as Row));
  }

  /** Direct children of a pool. */
  children(id: string): RespoolRecord[] {
    return this.db
      .prepare("SELECT * FROM peloton_respools WHERE parent_id = ? ORDER BY created_ms, id")
      .all(id)
      .map((r) => toRespool(r as Row));
  }

  /** Stores a new pool. */
  insert(pool: RespoolRecord): void {
    this.db
      .prepare("INSERT INTO peloton_respools (id, parent_id, name, spec, created_ms) VALUES (?, ?, ?, ?, ?)")
      .run(pool.id, pool.parentId, pool.name, toBinary(ResourcePoolSpecSchema, pool.spec), pool.createdMs);
  }

  /** Replaces a pool's name and spec. */
  update(id: string, name: string, spec: ResourcePoolSpec): void {
    this.db
      .prepare("UPDATE peloton_respools SET name = ?, spec = ? WHERE id = ?")
      .run(name, toBinary(ResourcePoolSpecSchema, spec), id);
  }

  /** Removes a pool. */
  delete(id: string): void {
    this.db.prepare("DELETE FROM peloton_respools WHERE id = ?").run(id);
  }
}
