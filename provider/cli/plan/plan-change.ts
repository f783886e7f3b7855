import { planDiff } from "../../core/planner";
import { type PlannedOperation, planUpdate } from "../../core/plan/operation";
import { plannedKindOf } from "./planners";
import { type ReplaceOrder, replacementOrder } from "./replace-order";

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

/**
 * The platform calls one resource's step makes, from the kind's planner: an update's calls, a
 * replacement's delete and create in the engine's order ({@link replacementOrder}), a create's or
 * a delete's. Undefined for resources that are not Clusterform's.
 */
export function planChange(change: ResourceChange): ChangePlan | undefined {
  const found = plannedKindOf(change.type, change.news ?? change.olds);
  if (!found) return undefined;
  const { kind, planner } = found;
  const olds = change.olds ?? {};
  const news = change.news ?? {};
  const type = kind.type;
  switch (change.op) {
    case "create":
      return { kind: type, operations: planner.create(news) };
    case "delete":
    case "discard":
      return { kind: type, operations: planner.delete(olds, change.id) };
    case "update":
      // The very planning `update` carries out (kit.ts), so the report cannot drift from it.
      return { kind: type, operations: planUpdate(kind.policies, planner, olds, news, change.id).operations };
    default: {
      if (!REPLACE_OPS.has(change.op)) return { kind: type, operations: [] };
      const order = change.order ?? replacementOrder({ type: change.type, urn: change.urn, olds, news });
      const [gone, made] = [planner.delete(olds, change.id), planner.create(news)];
      const replaces = planDiff(kind.policies, olds, news).replaces;
      return { kind: type, operations: order === "delete-first" ? [...gone, ...made] : [...made, ...gone], order, replaces };
    }
  }
}
