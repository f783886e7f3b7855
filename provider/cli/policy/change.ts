import { planDiff } from "../../core/planner";
import { isUnknown } from "../../core/unknown";
import { type ChangePlan, planChange } from "../plan/plan-change";
import { plannedKindOf } from "../plan/planners";
import { replacementOrder } from "../plan/replace-order";

export { definitionProps } from "../plan/engine-props";

type Props = Record<string, unknown>;

/** One Clusterform resource as a policy sees it: its new inputs and, when it exists, its old state. */
export interface PolicyResource {
  /** The resource's URN. */
  urn: string;
  /** Its logical name. */
  name: string;
  /** The engine's type (`pulumi-nodejs:dynamic/cmassh:Cluster`, `clusterform:cmassh:Cluster`). */
  type: string;
  /** The new inputs, after the provider's check (definition keys). Undefined for a deleted resource. */
  news?: Props;
  /** The old state, inputs and outputs (definition keys). Undefined for a new resource. */
  olds?: Props;
  /** The old object's id. */
  id?: string;
  /** The resource option `deleteBeforeReplace`, when the program set it. */
  deleteBeforeReplace?: boolean;
}

/** What the engine will do to one resource, and the platform calls that carries out. */
export interface PolicyChange {
  /** The kind, e.g. `cmassh:NodePool`. */
  kind: string;
  /** `create`, `update`, `replace`, `delete` or `same`. */
  op: "create" | "update" | "replace" | "delete" | "same";
  /** The planners' calls (empty for `same`). */
  plan: ChangePlan;
}

/**
 * The step the engine takes for `resource`, decided as the provider's diff decides it (the kind's
 * field-policy table), and the planners' calls for it. Undefined for resources of other packages.
 */
export function policyChange(resource: PolicyResource): PolicyChange | undefined {
  const found = plannedKindOf(resource.type, resource.news ?? resource.olds);
  if (!found) return undefined;
  const { kind } = found;
  const op = stepOf(kind.policies, resource);
  const news = resource.news ? onlyTableFields(kind.policies, resource.news) : undefined;
  // The order from the whole inputs (the dynamic SDK's hidden `deleteBeforeReplace`, the native identity).
  const order = op === "replace" ? replacementOrder({ type: resource.type, urn: resource.urn, olds: resource.olds, news: resource.news, option: resource.deleteBeforeReplace }) : undefined;
  const plan = op === "same" ? { kind: kind.type, operations: [] } : planChange({ type: resource.type, urn: resource.urn, op, id: resource.id, olds: resource.olds, news, order });
  return plan ? { kind: kind.type, op, plan } : undefined;
}

function stepOf(table: Parameters<typeof planDiff>[0], r: PolicyResource): PolicyChange["op"] {
  if (!r.news) return "delete";
  if (!r.olds) return "create";
  const diff = planDiff(table, r.olds, onlyTableFields(table, r.news));
  if (diff.replaces.length > 0) return "replace";
  return diff.changes ? "update" : "same";
}

// Inputs the table does not list (an engine's extra keys) change nothing the platform sees.
function onlyTableFields(table: Parameters<typeof planDiff>[0], props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([key]) => Object.hasOwn(table, key)));
}

/** A number, or undefined while unknown or absent. */
export function knownNumber(value: unknown): number | undefined {
  return typeof value === "number" && !isUnknown(value) ? value : undefined;
}
