import type { PelotonEnv } from "./env";
import { ROOT_POOL_ID, type RespoolRecord } from "./respool-store";
import { parsePoolPath } from "./respool-validation";

/** The absolute path of a pool: `/` for the root. */
export function poolPath(env: PelotonEnv, pool: RespoolRecord): string {
  const names: string[] = [];
  for (let p: RespoolRecord | undefined = pool; p?.parentId; p = env.respools.find(p.parentId)) names.unshift(p.name);
  return `/${names.join("/")}`;
}

/** The pool at an absolute path, if any; INVALID_ARGUMENT for a path that is not absolute. */
export function findPoolAtPath(env: PelotonEnv, path: string): RespoolRecord | undefined {
  let pool = env.respools.find(ROOT_POOL_ID);
  for (const name of parsePoolPath(path)) {
    if (!pool) return undefined;
    pool = env.respools.children(pool.id).find((c) => c.name === name);
  }
  return pool;
}
