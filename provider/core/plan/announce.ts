import { reporterFor } from "../../engines/pulumi-common/engine-log";
import type { PlannedOperation } from "./operation";
import { planChange } from "../../cli/plan/plan-change";

type Props = Record<string, unknown>;

/** The part of a provider's diff answer that decides the step. */
export interface DiffAnswer {
  changes?: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
}

function describe(op: PlannedOperation): string {
  const flags = (op.disruptions ?? []).filter((d) => d !== "unknown-values").map((d) => d.replace("-", " "));
  return `${op.call}: ${op.summary}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`;
}

/**
 * The line a changed resource's row shows: the platform calls the kind's planner gives for the step
 * this diff answer decides (`plan: ScaleNodePool: scales down from 5 to 1 machine(s): 2 removed`).
 * Undefined when nothing changes or the type is not Clusterform's.
 */
export function planLine(type: string, id: string, olds: Props, news: Props, diff: DiffAnswer): string | undefined {
  if (!diff.changes) return undefined;
  const replacing = (diff.replaces ?? []).length > 0;
  const order = { deleteBeforeReplace: diff.deleteBeforeReplace !== false };
  const plan = planChange({ type, op: replacing ? "replace" : "update", id, olds, news: { ...news, ...order } });
  if (!plan || plan.operations.length === 0) return undefined;
  const calls = plan.operations.map(describe).join("; ");
  if (!replacing) return `plan: ${calls}`;
  const first = plan.order === "create-first" ? "create first" : "delete first";
  return `plan: replace (${(plan.replaces ?? []).join(", ")}), ${first}: ${calls}`;
}

/**
 * Puts {@link planLine} on the resource's row: an ephemeral engine Log with its URN, which the preview
 * shows on the row (a lasting one would be listed again in the Diagnostics). Never throws: a line that cannot be shown
 * is no reason to fail a diff.
 */
export async function announcePlan(type: string, id: string, olds: Props, news: Props, diff: DiffAnswer): Promise<void> {
  try {
    const line = planLine(type, id, olds, news, diff);
    if (line) await reporterFor(news).note(line);
  } catch {
    // The plan is a courtesy here; the diff answer stands.
  }
}
