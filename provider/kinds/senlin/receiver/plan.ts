import type { CallOf } from "../../../core/plan/calls";
import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { RECEIVER_CALLS, type RECEIVER_UPDATE_CALLS } from "./schema";

type Call = CallOf<typeof RECEIVER_CALLS>;
type UpdateCall = CallOf<typeof RECEIVER_UPDATE_CALLS>;

/**
 * The planner of a Senlin receiver: name, action and params are one PATCH of the changed fields;
 * another cluster replaces the receiver (planned by the replacement, not here).
 */
export const receiverPlanner: KindPlanner<Call, UpdateCall> = {
  update(_olds, news, diff, id) {
    if (diff.updates.length === 0) return [];
    const fields = diff.updates.map((u) => u.field);
    return [op(RECEIVER_CALLS.UpdateReceiver, id, Object.fromEntries(fields.map((f) => [f, news[f]])), `updates the receiver's ${fields.join(" and ")} (its URL stays the same)`)];
  },
  create: (news) => [
    op(RECEIVER_CALLS.CreateReceiver, undefined, { name: known(news.name), cluster: known(news.cluster), action: known(news.action) }, `creates webhook receiver ${known(news.name) ?? ""}`.trim()),
  ],
  delete: (_olds, id) => [op(RECEIVER_CALLS.DeleteReceiver, id, {}, "deletes the receiver: its URL stops working", ["deletes"])],
};
