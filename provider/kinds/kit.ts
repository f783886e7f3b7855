import type { z } from "zod";
import type { ConfigReader } from "../core/config";
import { type PolicyTable, planDiff } from "../core/planner";
import { withUnreportedAdopted } from "../core/unreported";
import { type CheckFailure, describeValue, isUnknown, validateInputs } from "../core/validation";
import { type Reporter, reporterFor } from "../engines/pulumi-common/engine-log";
import { type KindPlanner, planUpdate, type UpdatePlan } from "../core/plan/operation";
import type { ResourceHandler } from "../registry";
import { KeptObjects, ReplacementGuard, replacementClash, replaceOrderOf } from "./replacement";

type Props = Record<string, unknown>;

/** What every operation gets: the stack configuration, read at call time, and a way to talk to the user. */
export interface OperationContext {
  readonly config: ConfigReader;
  /** Progress and warnings shown on the resource's row in the CLI. */
  readonly report: Reporter;
}

/** What `create` gets beyond the configuration. */
export interface CreateContext extends OperationContext {
  /**
   * Call before adopting an object the platform already holds under this resource's identity (a
   * derived name, a deterministic id, an ownership marker). Returns when adopting it is safe: it
   * cannot be the object a replacement is about to delete, so it is what an interrupted create of
   * this resource left behind. Throws a clear error otherwise; nothing must have been changed yet.
   * @param operation - what create was doing, e.g. `AddNodePool pool "a" of cluster "b"`.
   * @param identity - the found object's identity, as {@link ResourceDefinition.identity} forms it.
   */
  confirmAdoption(operation: string, identity: string): void;
  /**
   * Call when create returns an object it found rather than made, where the kind decides itself
   * that adopting it is safe (without {@link confirmAdoption}). The kit then keeps a delete of
   * that object by the same resource in this process from running (replacement.ts, KeptObjects).
   */
  adopting(): void;
}

/** The platform side of one resource kind: what `create`, `read`, `update` and `delete` do. */
export interface ResourceOperations<I> {
  create(ctx: CreateContext, inputs: I & Props): Promise<{ id: string; outs: Props }>;
  /** Returns undefined when the object is gone. */
  read(ctx: OperationContext, id: string, props: Props): Promise<Props | undefined>;
  /**
   * Carries out `plan.operations` in order (with `carryOut` of plan/operation.ts), each call
   * sending what its arguments say: the list the preview's report shows is what runs. An empty
   * list with no changed field is the engine retrying a create or update that failed: converge again.
   */
  update(ctx: OperationContext, id: string, olds: Props, news: I & Props, plan: UpdatePlan): Promise<Props>;
  delete(ctx: OperationContext, id: string, props: Props): Promise<void>;
}

/** Everything that defines one resource kind. */
export interface ResourceDefinition<I> {
  /** Validates and normalizes the user's inputs (unknown values pass). */
  schema: z.ZodType<I, unknown>;
  /** How each input field changes: in place by an operation, or by replacement. */
  policies: PolicyTable;
  /** Fills in derived inputs (names) from the old and new inputs; runs after validation. */
  complete?(olds: Props, news: I & Props): I & Props;
  /** Checks that depend on the old inputs too, e.g. a version downgrade. */
  checkChange?(olds: Props, news: I & Props): CheckFailure[];
  /**
   * The object's identity on the platform as the inputs determine it (a name, `cluster/pool`, a
   * deterministic id), or undefined while unknown. Two objects of one identity cannot coexist, and
   * an object found under it may be adopted: see {@link CreateContext.confirmAdoption}.
   */
  identity(inputs: Props): string | undefined;
  /** The kind's planner (its plan.ts): `update` carries out the operations it lists. */
  planner: KindPlanner;
  operations: ResourceOperations<I>;
  /**
   * The replacement order when the inputs do not say (an engine that sends no `deleteBeforeReplace`
   * hidden input, such as the native plugin): the kind's `replaceOrder`. @default "delete-first"
   */
  replaceOrder?: "create-first" | "delete-first";
}

/**
 * Turns a resource definition into the handler Pulumi's dynamic provider calls. `check` and `diff`
 * are pure (they never call the platform: the engine runs them one resource at a time, and a no-op
 * preview must cost nothing); the platform is touched only by create, read, update and delete.
 *
 * Replacement safety lives here, for every resource kind and engine (see replacement.ts):
 * replacements delete the old object first unless the program opts out with `deleteBeforeReplace:
 * false`, `create` adopts a found object only when it cannot be the one being replaced, and a delete
 * of the object the state keeps for the same resource (a create-first replacement that adopted it)
 * does not run.
 */
export function defineResource<I>(def: ResourceDefinition<I>): ResourceHandler {
  let config: ConfigReader = { get: () => undefined };
  const guard = new ReplacementGuard();
  const kept = new KeptObjects();
  const contextFor = (props: Props): OperationContext => ({
    get config() {
      return config;
    },
    report: reporterFor(props),
  });

  return {
    async configure(c) {
      config = c;
    },
    async check(olds, news) {
      const { __provider, deleteBeforeReplace, resourceUrn, ...raw } = news;
      const orderFailures = checkReplaceOrder(deleteBeforeReplace);
      const result = validateInputs(def.schema, raw);
      if (!result.inputs || orderFailures.length > 0) {
        return { inputs: news, failures: [...orderFailures, ...result.failures].map(forEngine) };
      }
      const completed = def.complete ? def.complete(olds, result.inputs as I & Props) : (result.inputs as I & Props);
      const inputs = { ...completed, ...definedOnly({ deleteBeforeReplace, resourceUrn }) };
      const updating = Object.keys(olds).length > 0;
      if (updating) guard.remember(inputs, def.identity(olds));
      kept.checked(inputs, updating);
      const failures = def.checkChange && updating ? def.checkChange(olds, inputs) : [];
      return { inputs: { ...inputs, __provider }, failures: failures.map(forEngine) };
    },
    async diff(id, olds, news) {
      const plan = planDiff(def.policies, withUnreportedAdopted(olds, news), news);
      kept.diffed(news, id, plan.replaces);
      if (plan.replaces.length === 0) return { changes: plan.changes, replaces: [], deleteBeforeReplace: false };
      // Inputs without the SDK's hidden `deleteBeforeReplace` (the native plugin) take the kind's order.
      const createFirst = news.deleteBeforeReplace === undefined ? def.replaceOrder === "create-first" : replaceOrderOf(news) === "create-first";
      if (createFirst) {
        const [before, after] = [def.identity(olds), def.identity(news)];
        if (before !== undefined && before === after) throw replacementClash(before, plan.replaces);
      }
      return { changes: true, replaces: plan.replaces, deleteBeforeReplace: !createFirst };
    },
    async create(inputs) {
      let adopted = false;
      const createCtx: CreateContext = {
        ...contextFor(inputs),
        confirmAdoption: (operation, identity) => {
          guard.confirmAdoption(inputs, operation, identity);
          adopted = true;
        },
        adopting: () => {
          adopted = true;
        },
      };
      const { id, outs } = await def.operations.create(createCtx, inputs as I & Props);
      if (adopted) kept.adoptedAs(inputs, id);
      return { id, outs: { ...inputs, ...outs } };
    },
    async read(id, props) {
      const live = await def.operations.read(contextFor(props), id, props);
      // A blank id tells the engine the object is gone; refresh then drops it from the state.
      return live ? { id, props: { ...props, ...live } } : { id: "", props: {} };
    },
    async update(id, olds, news) {
      const plan = planUpdate(def.policies, def.planner, olds, news, id);
      const outs = await def.operations.update(contextFor(news), id, olds, news as I & Props, plan);
      return { outs: { ...news, ...outs } };
    },
    async delete(id, props) {
      const ctx = contextFor(props);
      const reason = kept.reasonToKeep(props, id);
      if (reason !== undefined) {
        await ctx.report.warn(reason);
        return { kept: reason };
      }
      await def.operations.delete(ctx, id, props);
      return undefined;
    },
    identity: (inputs) => def.identity(inputs),
  } satisfies ResourceHandler;
}

export { IMPORT_UNREPORTED, withUnreportedAdopted } from "../core/unreported";

/**
 * Pulumi prints a failure as `property <p> value {<inputs[p]>} has a problem: <reason>`, looking
 * `p` up among the top-level inputs only: a nested path prints `value {<nil>}`. Nested failures
 * therefore go without a property (`resource 'x' has a problem: <reason>`); their reasons name the
 * whole path and the value received.
 */
function forEngine(failure: CheckFailure): CheckFailure {
  return /[.[]/.test(failure.property) ? { property: "", reason: failure.reason } : failure;
}

/** The hidden inputs the SDK sent, without the ones it did not. */
function definedOnly(fields: Props): Props {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function checkReplaceOrder(value: unknown): CheckFailure[] {
  if (value === undefined || typeof value === "boolean" || isUnknown(value)) return [];
  return [{ property: "deleteBeforeReplace", reason: `deleteBeforeReplace must be a boolean, got ${describeValue(value)}` }];
}

/**
 * The error Pulumi's dynamic provider turns into "created but failed to initialize": the engine
 * records the object with these properties (so a later update or delete can run; `__provider`
 * must be among them) and retries on the next `up` (pulumi/pulumi#18009).
 */
export class PartialStateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

/** Wraps `err` as a partial-state error when the object exists; anything else passes through. */
export function withPartialState(err: unknown, id: string, properties: Props): unknown {
  if (err instanceof PartialStateError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PartialStateError(message, id, properties, [message]);
}
