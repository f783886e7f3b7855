import type { Props } from "../contract";
import { deletionPolicyOf } from "../deletion";
import type { Kind } from "../definition/kind";
import { planDiff } from "../planner";
import type { ReplaceOrder } from "../replacement";
import { type PlannedOperation, planUpdate } from "./operation";

/** A step of one resource as the core plans it. */
export type Step = "create" | "update" | "replace" | "delete";

/**
 * The platform calls a step makes, from the kind's planner: an update's calls (the very planning
 * `update` carries out, so a report cannot drift from it), a replacement's delete and create in its
 * order, a create's or a delete's.
 */
export function plannedCalls(kind: Kind, step: Step, id: string | undefined, olds: Props, news: Props, order: ReplaceOrder = "delete-first"): PlannedOperation[] {
  switch (step) {
    case "create":
      return kind.planner.create(news);
    case "delete":
      // An abandoned object is forgotten, not deleted: no call (core/deletion.ts).
      return deletionPolicyOf(olds) === "abandon" ? [] : kind.planner.delete(olds, id);
    case "update":
      return planUpdate(kind.policies, kind.planner, olds, news, id).operations;
    case "replace": {
      const [gone, made] = [kind.planner.delete(olds, id), kind.planner.create(news)];
      return order === "delete-first" ? [...gone, ...made] : [...made, ...gone];
    }
  }
}

/** The fields whose change forces the replacement a step is (for a report of a recorded plan). */
export function replacingFields(kind: Kind, olds: Props, news: Props): string[] {
  return planDiff(kind.policies, olds, news).replaces;
}

/** One planned call as a reviewer reads it: `ScaleNodePool: scales down from 5 to 1 machine(s) [capacity removed]`. */
export function describeCall(op: PlannedOperation): string {
  const flags = (op.disruptions ?? []).filter((d) => d !== "unknown-values").map((d) => d.replace("-", " "));
  return `${op.call}: ${op.summary}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`;
}

/**
 * The line a changed resource's row shows: the platform calls of the step a diff decided
 * (`plan: ScaleNodePool: scales down from 5 to 1 machine(s) [capacity removed]`). Undefined when
 * nothing changes or no call is planned.
 */
export function planLine(diff: { changes: boolean; deleteFirst: boolean; operations: readonly PlannedOperation[] }, replaces: readonly string[]): string | undefined {
  if (!diff.changes || diff.operations.length === 0) return undefined;
  const calls = diff.operations.map(describeCall).join("; ");
  if (replaces.length === 0) return `plan: ${calls}`;
  return `plan: replace (${replaces.join(", ")}), ${diff.deleteFirst ? "delete first" : "create first"}: ${calls}`;
}
