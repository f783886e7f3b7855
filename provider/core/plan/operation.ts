import { type DiffPlan, type PolicyTable, planDiff } from "../planner";
import { isUnknown } from "../unknown";
import { withUnreportedAdopted } from "../unreported";

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

/** An in-place update as planned: the field diff and the platform calls that carry it out, in order. */
export interface UpdatePlan {
  diff: DiffPlan;
  operations: PlannedOperation[];
}

/**
 * The one planning of an in-place update: the preview's report shows it and `update` carries it
 * out (issue 18), so the two cannot differ. Inputs an import could not read are taken from the
 * program first, as the core's diff takes them.
 */
export function planUpdate(policies: PolicyTable, planner: KindPlanner, olds: Props, news: Props, id: string | undefined): UpdatePlan {
  const adopted = withUnreportedAdopted(olds, news);
  const diff = planDiff(policies, adopted, news);
  return { diff, operations: planner.update(adopted, news, diff, id) };
}

/** Runs one planned call, reading what it sends from the operation's arguments. */
export type Executor = (operation: PlannedOperation) => Promise<unknown>;

/**
 * Carries out a planned list in order, each operation by the executor of its call. Every
 * operation is checked before the first is sent: a call the kind cannot run, or an argument still
 * unknown, is a programming error and nothing is sent.
 * @param kind - the kind's type, for the error, e.g. `cmassh:NodePool`.
 * @throws Error naming the call or argument when the list cannot be carried out.
 */
export async function carryOut(kind: string, operations: readonly PlannedOperation[], executors: Readonly<Record<string, Executor>>): Promise<void> {
  for (const o of operations) {
    if (!Object.hasOwn(executors, o.call)) {
      throw new Error(`${kind}: the plan lists ${o.call}, which its update cannot carry out (it runs ${Object.keys(executors).join(", ") || "nothing"})`);
    }
    const unknown = Object.keys(o.args).filter((k) => isUnknown(o.args[k]));
    if (unknown.length > 0) throw new Error(`${kind}: ${o.call} has argument(s) ${unknown.join(", ")} still unknown at update`);
  }
  for (const o of operations) await executors[o.call](o);
}
