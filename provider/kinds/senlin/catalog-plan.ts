import type { KindPlanner } from "../../core/plan/operation";
import { known, op } from "../../core/plan/operation";

/** The three calls of a catalog object, from its schema's declaration. */
export interface CatalogCalls<C extends string, U extends string, D extends string> {
  create: C;
  update: U;
  delete: D;
}

/**
 * The planner of a Senlin catalog object (a profile or a policy): `name` and, for profiles,
 * `metadata` are one PATCH; a new spec replaces the object (planned by the replacement, not here).
 * @param noun - `Profile` or `Policy`, for the summaries.
 * @param calls - the kind's create, update (its only update call) and delete calls.
 */
export function catalogPlanner<C extends string, U extends string, D extends string>(noun: "Profile" | "Policy", calls: CatalogCalls<C, U, D>): KindPlanner<C | U | D, U> {
  const lower = noun.toLowerCase();
  return {
    update(_olds, news, diff, id) {
      if (diff.updates.length === 0) return [];
      const fields = diff.updates.map((u) => u.field);
      // The PATCH carries the changed fields' new values.
      return [op(calls.update, id, Object.fromEntries(fields.map((f) => [f, news[f]])), `updates the ${lower}'s ${fields.join(" and ")}`)];
    },
    create: (news) => [op(calls.create, undefined, { name: known(news.name) }, `creates ${lower} ${known(news.name) ?? ""}`.trim())],
    delete: (_olds, id) => [op(calls.delete, id, {}, `deletes the ${lower} (Senlin refuses while a cluster or node uses it)`, ["deletes"])],
  };
}
