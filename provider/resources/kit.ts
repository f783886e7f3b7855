import type { z } from "zod";
import type { ConfigReader } from "../core/config";
import { type DiffPlan, type PolicyTable, planDiff } from "../core/planner";
import { type CheckFailure, validateInputs } from "../core/validation";
import type { ResourceHandler } from "../registry";

type Props = Record<string, unknown>;

/** What every operation gets: the stack configuration, read at call time. */
export interface OperationContext {
  readonly config: ConfigReader;
}

/** The platform side of one resource kind: what `create`, `read`, `update` and `delete` do. */
export interface ResourceOperations<I> {
  create(ctx: OperationContext, inputs: I & Props): Promise<{ id: string; outs: Props }>;
  /** Returns undefined when the object is gone. */
  read(ctx: OperationContext, id: string, props: Props): Promise<Props | undefined>;
  update(ctx: OperationContext, id: string, olds: Props, news: I & Props, plan: DiffPlan): Promise<Props>;
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
  /** True when a replacement must delete the old object first (it would clash with the new one). */
  mustDeleteFirst?(olds: Props, news: Props): boolean;
  operations: ResourceOperations<I>;
}

/**
 * Turns a resource definition into the handler Pulumi's dynamic provider calls. `check` and `diff`
 * are pure (they never call the platform: the engine runs them one resource at a time, and a no-op
 * preview must cost nothing); the platform is touched only by create, read, update and delete.
 */
export function defineResource<I>(def: ResourceDefinition<I>): ResourceHandler {
  let config: ConfigReader = { get: () => undefined };
  const ctx: OperationContext = { get config() { return config; } };

  return {
    async configure(c) {
      config = c;
    },
    async check(olds, news) {
      const { __provider, ...raw } = news;
      const result = validateInputs(def.schema, raw);
      if (!result.inputs) return { inputs: news, failures: result.failures };
      const inputs = def.complete ? def.complete(olds, result.inputs as I & Props) : (result.inputs as I & Props);
      const failures = def.checkChange && Object.keys(olds).length > 0 ? def.checkChange(olds, inputs) : [];
      return { inputs: { ...inputs, __provider }, failures };
    },
    async diff(_id, olds, news) {
      const plan = planDiff(def.policies, olds, news);
      const deleteBeforeReplace = plan.replaces.length > 0 && (def.mustDeleteFirst?.(olds, news) ?? false);
      return { changes: plan.changes, replaces: plan.replaces, deleteBeforeReplace };
    },
    async create(inputs) {
      const { id, outs } = await def.operations.create(ctx, inputs as I & Props);
      return { id, outs: { ...inputs, ...outs } };
    },
    async read(id, props) {
      const live = await def.operations.read(ctx, id, props);
      // A blank id tells the engine the object is gone; refresh then drops it from the state.
      return live ? { id, props: { ...props, ...live } } : { id: "", props: {} };
    },
    async update(id, olds, news) {
      const plan = planDiff(def.policies, olds, news);
      const outs = await def.operations.update(ctx, id, olds, news as I & Props, plan);
      return { outs: { ...news, ...outs } };
    },
    async delete(id, props) {
      await def.operations.delete(ctx, id, props);
    },
  } satisfies ResourceHandler;
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
