import { UNKNOWN } from "../../core/unknown";
import { fromEngineNames } from "../../core/definition/names";
import { terraformTypeName } from "../../engines/terraform/schema";
import type { ReadChange } from "./plan-change";
import { kindOfTerraformType } from "./planners";

type Props = Record<string, unknown>;

/** One entry of `resource_changes` in `tofu show -json <planfile>` (the fields read here). */
interface TofuResourceChange {
  address?: string;
  mode?: string;
  type?: string;
  name?: string;
  change?: { actions?: string[]; before?: Props | null; after?: Props | null; after_unknown?: unknown };
}

/** The engine step of each action list a saved plan gives; no-op and read steps change nothing. */
const STEP_OF: Readonly<Record<string, Pick<ReadChange, "op" | "order">>> = {
  create: { op: "create" },
  update: { op: "update" },
  delete: { op: "delete" },
  "delete,create": { op: "replace", order: "delete-first" },
  "create,delete": { op: "replace", order: "create-first" },
};

/** True for a document `tofu show -json` (or `terraform show -json`) wrote from a saved plan. */
export function isTofuPlan(doc: unknown): boolean {
  const d = doc as Props | null;
  return typeof d === "object" && d !== null && typeof d.format_version === "string" && ("resource_changes" in d || "planned_values" in d || "terraform_version" in d);
}

/** `value` with nulls left out (HCL's unset attributes): the definitions treat an unset field as absent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/** `after` with every value `after_unknown` marks (known only at apply) as the unknown sentinel the planners read. */
function withUnknowns(after: unknown, unknown: unknown): unknown {
  if (unknown === true) return UNKNOWN;
  if (typeof unknown !== "object" || unknown === null) return after;
  if (Array.isArray(unknown)) {
    const list = Array.isArray(after) ? [...after] : [];
    unknown.forEach((u, i) => {
      list[i] = withUnknowns(list[i], u);
    });
    return list;
  }
  const out: Props = typeof after === "object" && after !== null ? { ...(after as Props) } : {};
  for (const [key, u] of Object.entries(unknown)) out[key] = withUnknowns(out[key], u);
  return out;
}

/**
 * The resource changes of a saved OpenTofu or Terraform plan (`tofu show -json <planfile>`), as
 * the report reads them: a `clusterform_*` resource's attributes (HCL names) mapped back to the
 * definitions' keys, values known only at apply marked unknown, a replacement with its order.
 * Resources of other providers keep their type and are reported without a platform plan.
 */
export function readTofuPlan(doc: Props): { changes: ReadChange[]; errors: string[] } {
  const list = Array.isArray(doc.resource_changes) ? (doc.resource_changes as TofuResourceChange[]) : [];
  const changes: ReadChange[] = [];
  for (const rc of list) {
    if (rc.mode === "data") continue;
    const step = STEP_OF[(rc.change?.actions ?? []).join(",")];
    if (!step) continue;
    const kind = kindOfTerraformType(rc.type, terraformTypeName);
    const before = rc.change?.before ? (withoutNulls(rc.change.before) as Props) : undefined;
    const after = rc.change?.after || rc.change?.after_unknown ? (withUnknowns(withoutNulls(rc.change?.after ?? {}), rc.change?.after_unknown) as Props) : undefined;
    const olds = before && kind ? fromEngineNames(kind, before, "terraform") : before;
    // The new inputs are the kind's input fields; the rest of `after` is outputs the plan carries along.
    const news = after && kind ? Object.fromEntries(Object.entries(fromEngineNames(kind, after, "terraform")).filter(([key]) => Object.hasOwn(kind.policies, key))) : after;
    changes.push({
      address: rc.address ?? "",
      name: rc.address ?? rc.name ?? "",
      type: kind?.type ?? rc.type ?? "",
      ...step,
      id: typeof before?.id === "string" ? before.id : undefined,
      olds,
      news,
    });
  }
  const errors = doc.errored === true ? ["the saved plan is incomplete: tofu reported errors while planning"] : [];
  return { changes, errors };
}
