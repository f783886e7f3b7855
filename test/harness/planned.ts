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

/**
 * The change step of the resource `name` in a preview: the `replace` step of a replacement (the
 * engine shows it as three steps), else its one changing step.
 */
export function previewStep(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = steps.filter((s) => s.name === name && s.op !== "same");
  return mine.find((s) => s.op === "replace") ?? mine[0];
}

/**
 * The audit's calls (`Call target`) with each target the plan could not know before the `up` (a
 * new object's id, planned as `?`) masked the same way, so the two lists compare call for call.
 */
export function maskUnplanned(planned: readonly string[], actual: readonly string[]): string[] {
  return actual.map((call, i) => (planned[i]?.endsWith(" ?") && planned[i].split(" ")[0] === call.split(" ")[0] ? `${call.split(" ")[0]} ?` : call));
}
