import type { CallOf } from "../../../core/plan/calls";
import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { POOL_CALLS, type POOL_UPDATE_CALLS } from "./schema";

/** Peloton resource pools: every in-place field goes in one UpdateResourcePool; `parent` replaces. */
export const resourcePoolPlanner: KindPlanner<CallOf<typeof POOL_CALLS>, CallOf<typeof POOL_UPDATE_CALLS>> = {
  update(_olds, _news, diff, id) {
    if (diff.updates.length === 0) return [];
    const fields = diff.updates.map((u) => u.field);
    return [op(POOL_CALLS.UpdateResourcePool, id, { fields }, `updates ${fields.join(", ")}`)];
  },
  create: (news) => [op(POOL_CALLS.CreateResourcePool, known(news.respoolId), { name: news.name }, `creates resource pool ${news.name ?? ""}`.trim())],
  delete: (_olds, id) => [op(POOL_CALLS.DeleteResourcePool, id, {}, "deletes the resource pool", ["deletes"])],
};
