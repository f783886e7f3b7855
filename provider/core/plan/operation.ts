import { withPlatformCapacity } from "../capacity";
import { type DiffPlan, type PolicyTable, planDiff } from "../planner";
import { isUnknown } from "../unknown";
import { withUnreportedAdopted } from "../unreported";
import type { Calls, Undecided } from "./calls";

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
export interface PlannedOperation<C extends string = string> {
  /** The platform call, e.g. `ScaleNodePool`. */
  call: C;
  /** What the call acts on as the platform names it (`cluster/pool`, an id); undefined when not known before it runs. */
  target?: string;
  /** The call's key arguments: target size, version, update mask, batch size, nodes removed. */
  args: Props;
  /** What in it is disruptive. @default none */
  disruptions?: Disruption[];
  /** One line for a reviewer: what the platform will do. */
  summary: string;
}

/** An operation planned with one of the calls `C`, or two of them still undecided. */
export type PlannedCall<C extends string> = PlannedOperation<C | Undecided<C>>;

/**
 * The platform side of planning one kind: pure functions of the inputs and the state's outputs,
 * never a platform call. `olds` is the old state as the engine keeps it (inputs and outputs).
 * `C` are the calls the kind declares (`CallOf<typeof NODE_POOL_CALLS>`, calls.ts), `U` those of
 * them its update makes: a planner naming another call is a compile error.
 */
export interface KindPlanner<C extends string = string, U extends C = C> {
  /** The calls of an in-place update of object `id`, in the order `update` makes them. */
  update(olds: Props, news: Props, diff: DiffPlan, id: string | undefined): PlannedCall<U>[];
  /** The calls that create the object. */
  create(news: Props): PlannedCall<C>[];
  /** The calls that delete object `id`. */
  delete(olds: Props, id: string | undefined): PlannedCall<C>[];
}

/** A string field's value, or undefined while unknown or absent. */
export function known(value: unknown): string | undefined {
  return typeof value === "string" && !isUnknown(value) ? value : undefined;
}

/** Builds an operation, flagging `unknown-values` when any argument is still unknown. */
export function op<C extends string>(call: C, target: string | undefined, args: Props, summary: string, disruptions: Disruption[] = []): PlannedOperation<C> {
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
 * program first, and sizes the platform owns from the state (core/capacity.ts), as the core's diff
 * takes them: the planner sees the size the plan keeps.
 */
export function planUpdate(policies: PolicyTable, planner: KindPlanner, olds: Props, news: Props, id: string | undefined): UpdatePlan {
  const adopted = withUnreportedAdopted(olds, news);
  const kept = withPlatformCapacity(policies, adopted, news).news;
  const diff = planDiff(policies, adopted, kept);
  return { diff, operations: planner.update(adopted, kept, diff, id) };
}

/** Runs one planned call, reading what it sends from the operation's arguments. */
export type Executor = (operation: PlannedOperation) => Promise<unknown>;

/** One executor for each call of `Us`, keyed by the call (`[NODE_POOL_CALLS.ScaleNodePool]: ...`). */
export type Executors<Us extends Calls> = { readonly [K in keyof Us]: Executor };

/**
 * The same executor for every call of `calls`: for a kind whose update calls all run one way
 * (send, then wait for the phase it leads to).
 */
export function oneExecutorFor<Us extends Calls>(calls: Us, executor: Executor): Executors<Us> {
  return Object.fromEntries(Object.keys(calls).map((call) => [call, executor])) as Executors<Us>;
}

/**
 * Carries out a planned list in order, each operation by the executor of its call. Every
 * operation is checked before the first is sent: a call the kind cannot run, or an argument still
 * unknown, is a programming error and nothing is sent. Name the kind's update calls as `Us`
 * (`carryOut<typeof NODE_POOL_UPDATE_CALLS>(...)`): a table missing one of them, or carrying
 * another, is then a compile error.
 * @param kind - the kind's type, for the error, e.g. `cmassh:NodePool`.
 * @throws Error naming the call or argument when the list cannot be carried out.
 */
export async function carryOut<Us extends Calls = Calls>(kind: string, operations: readonly PlannedOperation[], executors: Executors<NoInfer<Us>>): Promise<void> {
  for (const o of operations) {
    if (!Object.hasOwn(executors, o.call)) {
      throw new Error(`${kind}: the plan lists ${o.call}, which its update cannot carry out (it runs ${Object.keys(executors).join(", ") || "nothing"})`);
    }
    const unknown = Object.keys(o.args).filter((k) => isUnknown(o.args[k]));
    if (unknown.length > 0) throw new Error(`${kind}: ${o.call} has argument(s) ${unknown.join(", ")} still unknown at update`);
  }
  const run: Readonly<Record<string, Executor>> = executors;
  for (const o of operations) await run[o.call](o);
}
