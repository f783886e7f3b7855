import { upgradeState } from "../../core/definition/migration";
import { plannedCalls, replacingFields } from "../../core/plan/announce";
import type { PlannedOperation } from "../../core/plan/operation";
import type { ReplaceOrder } from "../../core/replacement";
import { plannedKindOf } from "./planners";
import { replacementOrder } from "./replace-order";

type Props = Record<string, unknown>;

/**
 * One resource's step as the engine plans it, its properties in the definitions' keys (the
 * native plugin's Pulumi names are renamed first: `definitionProps` of engine-props.ts).
 */
export interface ResourceChange {
  /** The engine's type of the resource. */
  type: string;
  /** The resource's URN, when known: a native replacement's order reads its identity from it. */
  urn?: string;
  /** `create`, `update`, `replace`, `delete`, ... as the engine names the step. */
  op: string;
  /** The object's id, when it exists. */
  id?: string;
  /** The old state (inputs and outputs), when the object exists. */
  olds?: Props;
  /** The new inputs, as the provider's check returned them. */
  news?: Props;
  /** For a replacement, its order when the engine says it (a saved tofu plan); else {@link replacementOrder} decides. */
  order?: ReplaceOrder;
}

/** One resource's change as read from a saved plan, with the names a report shows. */
export interface ReadChange extends ResourceChange {
  /** The resource's URN. */
  address: string;
  /** The resource's logical name. */
  name: string;
}

/** What a change will do on the platform. */
export interface ChangePlan {
  /** The kind's type, e.g. `cmassh:NodePool`. */
  kind: string;
  /** The platform calls, in order. */
  operations: PlannedOperation[];
  /** For a replacement: which object goes first. */
  order?: ReplaceOrder;
  /** For a replacement: the fields that force it. */
  replaces?: string[];
}

/** Where a step is a replacement (the engine shows one replacement as several steps). */
const REPLACE_OPS = new Set(["replace", "create-replacement", "delete-replaced"]);

/** The core's step of an engine step (`discard` deletes a state entry the engine forgets). */
const STEPS: Readonly<Record<string, "create" | "update" | "delete">> = { create: "create", update: "update", delete: "delete", discard: "delete" };

/**
 * The platform calls one resource's step makes, from the kind's planner (core/plan/announce.ts
 * plannedCalls: the same planning `update` carries out): a replacement's delete and create in the
 * engine's order ({@link replacementOrder}). Undefined for resources that are not Clusterform's.
 */
export function planChange(change: ResourceChange): ChangePlan | undefined {
  const found = plannedKindOf(change.type, change.news ?? change.olds);
  if (!found) return undefined;
  const { kind } = found;
  // A state an older release wrote reads as this release's fields, as the provider reads it.
  const olds = change.olds ? upgradeState(kind, change.olds) : {};
  const news = change.news ?? {};
  const step = STEPS[change.op];
  if (step) return { kind: kind.type, operations: plannedCalls(kind, step, change.id, olds, news) };
  if (!REPLACE_OPS.has(change.op)) return { kind: kind.type, operations: [] };
  const order = change.order ?? replacementOrder({ type: change.type, urn: change.urn, olds, news });
  return { kind: kind.type, operations: plannedCalls(kind, "replace", change.id, olds, news, order), order, replaces: replacingFields(kind, olds, news) };
}
