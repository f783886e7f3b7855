import { definitionProps } from "./engine-props";
import type { ReadChange } from "./plan-change";
import { isTofuPlan, readTofuPlan } from "./tofu-plan-json";

export type { ReadChange } from "./plan-change";

type Props = Record<string, unknown>;

/** A resource state in `pulumi preview --json` (apitype.ResourceV3, the fields read here). */
interface PreviewState {
  type?: string;
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

/** One step of `pulumi preview --json`. */
interface PreviewStep {
  op?: string;
  urn?: string;
  oldState?: PreviewState;
  newState?: PreviewState;
}

/** The engine's steps that stand for one replacement; the report keeps the `replace` one. */
const REPLACEMENT_PARTS = new Set(["create-replacement", "delete-replaced"]);

/** What the two accepted inputs are, for errors. */
const ACCEPTED = "give the output of `pulumi preview --json` or of `tofu show -json <planfile>`";

/**
 * The resource changes of `pulumi preview --json` (its `steps`) or of a saved OpenTofu/Terraform
 * plan (`tofu show -json <planfile>`, its `resource_changes`), told apart by their shape. Steps
 * that change nothing are left out, and each replacement is one change.
 * @throws Error naming what was expected when `text` is neither document.
 */
export function readPlanJson(text: string): { changes: ReadChange[]; errors: string[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`the input is not JSON (${(err as Error).message}); ${ACCEPTED}`);
  }
  if (isTofuPlan(doc)) return readTofuPlan(doc as Record<string, unknown>);
  const d = doc as { steps?: unknown; diagnostics?: unknown };
  const diagnostics = Array.isArray(d?.diagnostics) ? (d.diagnostics as { severity?: string; message?: string; urn?: string }[]) : [];
  const errors = diagnostics.filter((x) => x.severity === "error").map((x) => `${x.urn ? `${x.urn.split("::").pop()}: ` : ""}${(x.message ?? "").trim()}`);
  if (Array.isArray(d?.steps)) return { changes: fromPreview(d.steps as PreviewStep[]), errors };
  // A preview with nothing to do, or one that failed before planning, has no steps.
  if (d && typeof d === "object" && Array.isArray(d.diagnostics)) return { changes: [], errors };
  throw new Error(`the input JSON has neither \`steps\` (a Pulumi preview) nor \`resource_changes\` (a saved tofu plan): ${ACCEPTED}`);
}

function fromPreview(steps: PreviewStep[]): ReadChange[] {
  const changes: ReadChange[] = [];
  const replaced = new Set(steps.filter((s) => s.op === "replace").map((s) => s.urn));
  for (const step of steps) {
    const op = step.op ?? "same";
    if (op === "same" || op === "read" || (REPLACEMENT_PARTS.has(op) && replaced.has(step.urn))) continue;
    const urn = step.urn ?? "";
    const state = step.newState ?? step.oldState;
    const type = state?.type ?? urn.split("::")[2] ?? "";
    // The native plugin's properties carry Pulumi's names (a job's `owner`): the planners read the definitions' keys.
    const olds = step.oldState ? definitionProps(type, { ...step.oldState.inputs, ...step.oldState.outputs }) : undefined;
    const news = step.newState?.inputs ? definitionProps(type, step.newState.inputs) : undefined;
    changes.push({ address: urn, urn: urn || undefined, name: urn.split("::").pop() ?? urn, type, op, id: step.oldState?.id || undefined, olds, news });
  }
  return changes;
}
