import type { DiffPlan } from "../core/planner";
import { isUnknown } from "../core/unknown";

type Props = Record<string, unknown>;

/** What a reviewer should notice about one operation; each flag is shown next to it. */
export type Disruption =
  /** The platform deletes an object (a replacement's old object, a destroyed resource). */
  | "deletes"
  /** Nodes or instances go away: a scale-down, a removed pool. */
  | "capacity-removed"
  /** Running instances are restarted or rolled onto a new configuration. */
  | "restarts"
  /** A version upgrade. */
  | "upgrade"
  /** Some argument is not known until the `up` runs. */
  | "unknown-values";

/** One platform call a change will make, named as the platform's audit log names it. */
export interface PlannedOperation {
  /** The platform call, e.g. `ScaleNodePool`. */
  call: string;
  /** What the call acts on as the platform names it (`cluster/pool`, an id); undefined when not known before it runs. */
  target?: string;
  /** The call's key arguments: target size, version, update mask, batch size, nodes removed. */
  args: Props;
  /** What in it is disruptive. @default none */
  disruptions?: Disruption[];
  /** One line for a reviewer: what the platform will do. */
  summary: string;
}

/**
 * The platform side of planning one kind: pure functions of the inputs and the state's outputs,
 * never a platform call. `olds` is the old state as the engine keeps it (inputs and outputs).
 */
export interface KindPlanner {
  /** The calls of an in-place update of object `id`, in the order `update` makes them. */
  update(olds: Props, news: Props, diff: DiffPlan, id: string | undefined): PlannedOperation[];
  /** The calls that create the object. */
  create(news: Props): PlannedOperation[];
  /** The calls that delete object `id`. */
  delete(olds: Props, id: string | undefined): PlannedOperation[];
}

/** A string field's value, or undefined while unknown or absent. */
export function known(value: unknown): string | undefined {
  return typeof value === "string" && !isUnknown(value) ? value : undefined;
}

/** Builds an operation, flagging `unknown-values` when any argument is still unknown. */
export function op(call: string, target: string | undefined, args: Props, summary: string, disruptions: Disruption[] = []): PlannedOperation {
  const flags = [...disruptions];
  if (target === undefined || Object.values(args).some(isUnknown)) flags.push("unknown-values");
  return { call, target, args, summary, ...(flags.length > 0 ? { disruptions: flags } : {}) };
}
