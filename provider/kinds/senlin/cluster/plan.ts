import { platformOwnsCapacity } from "../../../core/capacity";
import type { CallOf } from "../../../core/plan/calls";
import type { KindPlanner, PlannedOperation } from "../../../core/plan/operation";
import { op } from "../../../core/plan/operation";
import { planPolicies } from "./policy-set";
import { CLUSTER_CALLS, type CLUSTER_UPDATE_CALLS, POLICY_ACTIONS, type PolicyBinding } from "./schema";

type Props = Record<string, unknown>;
type UpdateCall = CallOf<typeof CLUSTER_UPDATE_CALLS>;

/** The fields one PATCH (UpdateCluster) sends, in the order the patch lists them. */
const PATCHED = ["name", "profile", "profileOnly", "actionTimeout", "metadata", "config"] as const;

/** The bindings of a state or of new inputs, `enabled` filled in (an HCL state keeps an unset one null). */
const bindings = (v: unknown): PolicyBinding[] => (Array.isArray(v) ? (v as PolicyBinding[]).map((b) => ({ policy: b.policy, enabled: b.enabled ?? true })) : []);

/** The policy actions from one binding set to another: detaches, attaches, then `enabled` updates. */
function policyCalls(id: string | undefined, from: PolicyBinding[], to: PolicyBinding[]): PlannedOperation<(typeof POLICY_ACTIONS.calls)[number]>[] {
  const changes = planPolicies(from, to);
  return [
    ...changes.detach.map((policy) => op(CLUSTER_CALLS.DetachClusterPolicy, id, { policy }, `detaches policy ${policy}`)),
    ...changes.attach.map((b) => op(CLUSTER_CALLS.AttachClusterPolicy, id, { policy: b.policy, enabled: b.enabled }, `attaches policy ${b.policy}${b.enabled ? "" : " (disabled)"}`)),
    ...changes.update.map((b) => op(CLUSTER_CALLS.UpdateClusterPolicy, id, { policy: b.policy, enabled: b.enabled }, `${b.enabled ? "enables" : "disables"} policy ${b.policy}`)),
  ];
}

/** The program's size and bounds: one EXACT_CAPACITY resize to `desiredCapacity`, strict. */
function resizeCall(olds: Props, news: Props, id: string | undefined): PlannedOperation<UpdateCall> {
  const [from, to] = [olds.desiredCapacity, news.desiredCapacity];
  const fewer = typeof from === "number" && typeof to === "number" && to < from;
  const args = { adjustmentType: "EXACT_CAPACITY", number: to, minSize: news.minSize, maxSize: news.maxSize };
  return op(CLUSTER_CALLS.ResizeCluster, id, args, `resizes to ${to} node(s) (was ${from}), bounds ${news.minSize}..${news.maxSize}`, fewer ? ["capacity-removed"] : []);
}

/**
 * New bounds of a cluster whose size Senlin owns (`capacityOwner: "platform"`): a resize of the
 * bounds alone with `strict: false`, so Senlin keeps the live size when it fits them and truncates
 * it to the nearer bound when it does not (scaleutils' `truncate_desired`), against the size it has
 * when the action runs. `news.desiredCapacity` is the size the plan keeps (core/capacity.ts): the
 * summary names a clamp when the recorded size falls outside. Senlin does not truncate to a
 * `max_size` of 0, so that one clamp is sent as EXACT_CAPACITY 0 (no other size is allowed then).
 */
function boundsCall(olds: Props, news: Props, id: string | undefined): PlannedOperation<UpdateCall> {
  const [live, kept] = [olds.desiredCapacity, news.desiredCapacity];
  const bounds = `${news.minSize}..${news.maxSize}`;
  const clamped = typeof live === "number" && typeof kept === "number" && kept !== live;
  const toZero = clamped && news.maxSize === 0 ? { adjustmentType: "EXACT_CAPACITY", number: 0 } : {};
  const args = { ...toZero, minSize: news.minSize, maxSize: news.maxSize, strict: false };
  if (!clamped) return op(CLUSTER_CALLS.ResizeCluster, id, args, `sets the bounds to ${bounds}; the size stays Senlin's (${live ?? "?"} node(s) when last read)`);
  const summary = `sets the bounds to ${bounds} and clamps the size from ${live} to ${kept} node(s) (outside the new bounds; Senlin truncates it, strict false)`;
  return op(CLUSTER_CALLS.ResizeCluster, id, args, summary, kept < live ? ["capacity-removed"] : []);
}

/**
 * Senlin clusters change in place only, in the order `update` runs them: one PATCH
 * (UpdateCluster) for the fields it carries, one EXACT_CAPACITY resize for the three sizes, then
 * the policy actions.
 */
export const clusterPlanner: KindPlanner<CallOf<typeof CLUSTER_CALLS>, CallOf<typeof CLUSTER_UPDATE_CALLS>> = {
  update(olds, news, diff, id) {
    const operations = new Set(diff.updates.map((u) => u.operation));
    const calls: PlannedOperation<UpdateCall>[] = [];
    if (operations.has(CLUSTER_CALLS.UpdateCluster)) {
      const fields = PATCHED.filter((f) => diff.updates.some((u) => u.field === f));
      const profile = fields.includes("profile");
      const summary = profile ? `rolls every node onto profile ${news.profile} (Senlin's rolling update)` : `updates ${fields.join(", ")}`;
      // A new profile is sent with `profileOnly` (whether existing nodes keep theirs), changed or not.
      const sent = profile && !fields.includes("profileOnly") ? [...fields, "profileOnly" as const] : fields;
      calls.push(op(CLUSTER_CALLS.UpdateCluster, id, Object.fromEntries(sent.map((f) => [f, news[f]])), summary, profile && news.profileOnly !== true ? ["restarts"] : []));
    }
    if (operations.has(CLUSTER_CALLS.ResizeCluster)) calls.push(platformOwnsCapacity(news) ? boundsCall(olds, news, id) : resizeCall(olds, news, id));
    if (operations.has(POLICY_ACTIONS.operation)) calls.push(...policyCalls(id, bindings(olds.policies), bindings(news.policies)));
    return calls;
  },
  create: (news) => [
    op(CLUSTER_CALLS.CreateCluster, undefined, { profile: news.profile, desiredCapacity: news.desiredCapacity, minSize: news.minSize, maxSize: news.maxSize }, `creates a cluster of ${news.desiredCapacity} node(s) from profile ${news.profile}`),
    ...policyCalls(undefined, [], bindings(news.policies)),
  ],
  delete: (olds, id) => {
    return [
      ...bindings(olds.policies).map((b) => op(CLUSTER_CALLS.DetachClusterPolicy, id, { policy: b.policy }, `detaches policy ${b.policy}`)),
      op(CLUSTER_CALLS.DeleteCluster, id, {}, `deletes the cluster and its ${olds.desiredCapacity ?? "?"} node(s)`, ["deletes", "capacity-removed"]),
    ];
  },
};
