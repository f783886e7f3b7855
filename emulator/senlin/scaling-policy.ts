import type { ClusterRecord, PolicyRecord } from "./records";
import { checkSizeParams, MAX_NODES_PER_CLUSTER } from "./scaling";
import type { SenlinStore } from "./store";

/** What a scaling policy's check decides for a scale action (`scaling_policy.py` `pre_op`). */
export interface ScalingDecision {
  /** The nodes to add or remove. */
  count: number;
  /** What the check records in the action's `data`. */
  data: Record<string, unknown>;
  /** Why the action fails, when the check refused it. */
  refusal?: string;
}

/** The first enabled `senlin.policy.scaling` binding of a cluster whose `event` is this action. */
export function scalingPolicyFor(store: SenlinStore, clusterId: string, action: "CLUSTER_SCALE_OUT" | "CLUSTER_SCALE_IN"): PolicyRecord | undefined {
  for (const binding of store.bindings(clusterId)) {
    if (!binding.enabled) continue;
    const policy = store.policies.get(binding.policyId);
    const properties = (policy?.spec.properties ?? {}) as { event?: unknown };
    if (policy?.type.startsWith("senlin.policy.scaling-") && properties.event === action) return policy;
  }
  return undefined;
}

interface Adjustment {
  type: "EXACT_CAPACITY" | "CHANGE_IN_CAPACITY" | "CHANGE_IN_PERCENTAGE";
  number: number;
  minStep: number;
  bestEffort: boolean;
}

/** The policy's `adjustment` with its schema's defaults (CHANGE_IN_CAPACITY by 1, min_step 1, best_effort false). */
function adjustmentOf(policy: PolicyRecord): Adjustment {
  const given = (((policy.spec.properties ?? {}) as { adjustment?: Record<string, unknown> }).adjustment ?? {}) as Record<string, unknown>;
  const type = given.type === "EXACT_CAPACITY" || given.type === "CHANGE_IN_PERCENTAGE" ? given.type : "CHANGE_IN_CAPACITY";
  return { type, number: Number(given.number ?? 1), minStep: Number(given.min_step ?? 1), bestEffort: given.best_effort === true };
}

/** `_calculate_adjustment_count`: how many nodes the policy asks for, from the current member count. */
function adjustmentCount(adjustment: Adjustment, current: number, out: boolean): number {
  if (adjustment.type === "EXACT_CAPACITY") return out ? adjustment.number - current : current - adjustment.number;
  if (adjustment.type === "CHANGE_IN_CAPACITY") return adjustment.number;
  const count = Math.trunc((adjustment.number * current) / 100);
  return Math.max(count, adjustment.minStep);
}

/**
 * The scaling policy's check of a scale action: the action's own `count` if it has one, else the
 * policy's adjustment; with `best_effort` clamped to what the bounds allow (so a scale-out at
 * `max_size` adds 0 nodes and succeeds), without it refused when the bounds do not allow it.
 */
export function checkScaling(policy: PolicyRecord, cluster: ClusterRecord, current: number, out: boolean, requested: number | undefined): ScalingDecision {
  const adjustment = adjustmentOf(policy);
  let count = requested ?? adjustmentCount(adjustment, current, out);
  if (!Number.isInteger(count) || count <= 0) {
    const reason = `Invalid count (${count}) for action '${out ? "CLUSTER_SCALE_OUT" : "CLUSTER_SCALE_IN"}'.`;
    return { count: 0, data: { status: "ERROR", reason }, refusal: `Policy check failure: Failed policy '${policy.name}': ${reason}` };
  }
  const maxSize = cluster.maxSize === -1 ? MAX_NODES_PER_CLUSTER : cluster.maxSize;
  if (adjustment.bestEffort) count = Math.max(0, Math.min(count, out ? maxSize - current : current - cluster.minSize));
  const error = checkSizeParams(cluster, out ? current + count : current - count, undefined, undefined, !adjustment.bestEffort);
  if (error) return { count, data: { status: "ERROR", reason: error }, refusal: `Policy check failure: Failed policy '${policy.name}': ${error}` };
  return { count, data: { status: "OK", reason: "Scaling request validated.", [out ? "creation" : "deletion"]: { count } } };
}
