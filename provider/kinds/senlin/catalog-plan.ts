import type { KindPlanner } from "../../core/plan/operation";
import { known, op } from "../../core/plan/operation";

/**
 * The planner of a Senlin catalog object (a profile or a policy): `name` and, for profiles,
 * `metadata` are one PATCH; a new spec replaces the object (planned by the replacement, not here).
 * @param noun - `Profile` or `Policy`, as Senlin's calls name it.
 */
export function catalogPlanner(noun: "Profile" | "Policy"): KindPlanner {
  const lower = noun.toLowerCase();
  return {
    update(_olds, news, diff, id) {
      if (diff.updates.length === 0) return [];
      const fields = diff.updates.map((u) => u.field);
      // The PATCH carries the changed fields' new values.
      return [op(`Update${noun}`, id, Object.fromEntries(fields.map((f) => [f, news[f]])), `updates the ${lower}'s ${fields.join(" and ")}`)];
    },
    create: (news) => [op(`Create${noun}`, undefined, { name: known(news.name) }, `creates ${lower} ${known(news.name) ?? ""}`.trim())],
    delete: (_olds, id) => [op(`Delete${noun}`, id, {}, `deletes the ${lower} (Senlin refuses while a cluster or node uses it)`, ["deletes"])],
  };
}
