import type { PhaseName } from "../../../clients/vcluster/types";
import type { CallOf } from "../../../core/plan/calls";
import type { DiffPlan } from "../../../core/planner";
import { VCLUSTER_CALLS, VCLUSTER_FIELDS, type VCLUSTER_UPDATE_CALLS } from "./schema";

/** One call of an update, and the phases to wait for after it. */
export type Step =
  | { call: typeof VCLUSTER_CALLS.ResumeVCluster; waitFor: PhaseName[] }
  | { call: typeof VCLUSTER_CALLS.UpdateVCluster; mask: string[]; waitFor: PhaseName[] }
  | { call: typeof VCLUSTER_CALLS.ScaleVCluster; waitFor: PhaseName[] }
  | { call: typeof VCLUSTER_CALLS.SuspendVCluster; waitFor: PhaseName[] };

/** The phases each call of an update waits for after it is sent: an update call without its phases does not compile. */
export const WAIT_FOR: Readonly<Record<CallOf<typeof VCLUSTER_UPDATE_CALLS>, PhaseName[]>> = {
  [VCLUSTER_CALLS.ResumeVCluster]: ["RUNNING"],
  [VCLUSTER_CALLS.UpdateVCluster]: ["RUNNING", "SUSPENDED"],
  [VCLUSTER_CALLS.ScaleVCluster]: ["RUNNING"],
  [VCLUSTER_CALLS.SuspendVCluster]: ["SUSPENDED"],
};

/**
 * The calls of an in-place update, in the order the phase rules allow: ScaleVCluster needs RUNNING,
 * so a suspended vcluster resumes first; suspending comes last so nothing else meets SUSPENDED. A
 * vcluster that stays suspended but must scale is resumed, scaled and suspended again.
 */
export function planSteps(plan: Pick<DiffPlan, "updates">, olds: Record<string, unknown>, news: Record<string, unknown>): Step[] {
  const changed = new Set(plan.updates.map((u) => u.field));
  const mask = Object.entries(VCLUSTER_FIELDS)
    .filter(([field, rule]) => rule.maskPath !== undefined && changed.has(field))
    .map(([, rule]) => rule.maskPath!);
  const scale = changed.has("replicas") || changed.has("resources");
  const [was, will] = [olds.suspended === true, news.suspended === true];
  const steps: Step[] = [];
  if (was && (!will || scale)) steps.push({ call: VCLUSTER_CALLS.ResumeVCluster, waitFor: WAIT_FOR[VCLUSTER_CALLS.ResumeVCluster] });
  if (mask.length > 0) steps.push({ call: VCLUSTER_CALLS.UpdateVCluster, mask, waitFor: WAIT_FOR[VCLUSTER_CALLS.UpdateVCluster] });
  if (scale) steps.push({ call: VCLUSTER_CALLS.ScaleVCluster, waitFor: WAIT_FOR[VCLUSTER_CALLS.ScaleVCluster] });
  if (will && (!was || scale)) steps.push({ call: VCLUSTER_CALLS.SuspendVCluster, waitFor: WAIT_FOR[VCLUSTER_CALLS.SuspendVCluster] });
  return steps;
}
