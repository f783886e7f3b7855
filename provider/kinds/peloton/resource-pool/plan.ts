import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";

/** Peloton resource pools: every in-place field goes in one UpdateResourcePool; `parent` replaces. */
export const resourcePoolPlanner: KindPlanner = {
  update(_olds, _news, diff, id) {
    if (diff.updates.length === 0) return [];
    const fields = diff.updates.map((u) => u.field);
    return [op("UpdateResourcePool", id, { fields }, `updates ${fields.join(", ")}`)];
  },
  create: (news) => [op("CreateResourcePool", known(news.respoolId), { name: news.name }, `creates resource pool ${news.name ?? ""}`.trim())],
  delete: (_olds, id) => [op("DeleteResourcePool", id, {}, "deletes the resource pool", ["deletes"])],
};
