import type { Demand } from "./runs";
import type { RespoolRecord } from "./respool-store";

const EPSILON = 1e-9;

/**
 * Resource use per pool at one moment. A pod's demand counts against its job's pool and every
 * ancestor, and a pod fits only if every pool on that chain stays within its limit for every kind
 * it limits (a kind a pool does not list is unlimited there).
 */
export class PoolLedger {
  private readonly parents = new Map<string, string | null>();
  private readonly limits = new Map<string, Map<string, number>>();
  private readonly used = new Map<string, Record<string, number>>();

  constructor(pools: readonly RespoolRecord[]) {
    for (const pool of pools) {
      this.parents.set(pool.id, pool.parentId);
      this.limits.set(pool.id, new Map(pool.spec.resources.map((r) => [r.kind, r.limit])));
    }
  }

  /** The pool and its ancestors, nearest first. */
  chain(poolId: string): string[] {
    const chain: string[] = [];
    for (let id: string | null | undefined = poolId; id != null && !chain.includes(id); id = this.parents.get(id)) {
      chain.push(id);
    }
    return chain;
  }

  /** Whether a pod of `demand` fits in `poolId` now. */
  fits(poolId: string, demand: Demand): boolean {
    return this.chain(poolId).every((id) => {
      const used = this.used.get(id) ?? {};
      for (const [kind, limit] of this.limits.get(id) ?? []) {
        if ((used[kind] ?? 0) + (demand[kind] ?? 0) > limit + EPSILON) return false;
      }
      return true;
    });
  }

  /** Counts a pod's demand against its pool and the pool's ancestors. */
  add(poolId: string, demand: Demand): void {
    for (const id of this.chain(poolId)) {
      const used = this.used.get(id) ?? {};
      for (const [kind, amount] of Object.entries(demand)) used[kind] = (used[kind] ?? 0) + amount;
      this.used.set(id, used);
    }
  }

  /** What a pool and its descendants use, per kind. */
  usage(poolId: string): Readonly<Record<string, number>> {
    return this.used.get(poolId) ?? {};
  }
}
