import { planChange } from "../../provider/plan/plan-change";
import type { StepRecord } from "./engine";

/**
 * The platform calls the operations plan gives for one step of a preview, as `Call target` (the
 * way the field tables print the audit log's mutating calls); a target not known before the `up`
 * prints as `?`. Nothing for a step of no Clusterform resource or no step at all.
 */
export function plannedCalls(step: StepRecord | undefined): string[] {
  if (!step) return [];
  const plan = planChange({ type: step.type, op: step.op, id: step.id, olds: step.olds, news: step.news });
  return (plan?.operations ?? []).map((o) => `${o.call} ${o.target ?? "?"}`);
}
