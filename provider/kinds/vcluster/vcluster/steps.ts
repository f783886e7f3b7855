import type { PhaseName } from "../../../clients/vcluster/types";
import type { DiffPlan } from "../../../core/planner";
import { VCLUSTER_FIELDS } from "./schema";

/** One call of an update, and the phases to wait for after it. */
export type Step =
  | { call: "ResumeVCluster"; waitFor: PhaseName[] }
  | { call: "UpdateVCluster"; mask: string[]; waitFor: PhaseName[] }
  | { call: "ScaleVCluster"; waitFor: PhaseName[] }
  | { call: "SuspendVCluster"; waitFor: PhaseName[] };

/** The phases each call of an update waits for after it is sent. */
export const WAIT_FOR: Readonly<Record<Step["call"], PhaseName[]>> = {
  ResumeVCluster: ["RUNNING"],
  UpdateVCluster: ["RUNNING", "SUSPENDED"],
  ScaleVCluster: ["RUNNING"],
  SuspendVCluster: ["SUSPENDED"],
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
  if (was && (!will || scale)) steps.push({ call: "ResumeVCluster", waitFor: WAIT_FOR.ResumeVCluster });
  if (mask.length > 0) steps.push({ call: "UpdateVCluster", mask, waitFor: WAIT_FOR.UpdateVCluster });
  if (scale) steps.push({ call: "ScaleVCluster", waitFor: WAIT_FOR.ScaleVCluster });
  if (will && (!was || scale)) steps.push({ call: "SuspendVCluster", waitFor: WAIT_FOR.SuspendVCluster });
  return steps;
}
