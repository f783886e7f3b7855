import type { Clamp } from "./capacity";
import type { ConfigReader, Platform } from "./config";
import type { CheckFailure } from "./validation";
import type { PlannedOperation, UpdatePlan } from "./plan/operation";

/*
 * The core's own contract: what a kind's operations receive and answer, and what the core answers
 * an engine adapter. Nothing here is an engine's type; each adapter translates its engine's messages
 * to and from these (engines/dynamic, engines/pulumi-native, engines/terraform).
 */

/** Inputs or state in the definitions' keys (`jobOwner`, never an engine's `owner`). */
export type Props = Record<string, unknown>;

/**
 * What an operation tells the person running the engine while it works, on the resource's row.
 *
 * Pulumi keeps a row's last message into the resource's later steps and drops an empty one, so a
 * row's text can be replaced but never cleared (engines/pulumi-common/engine-log.ts): what a step
 * sends last must still read true on the row's later steps; a wait ends with a message saying it
 * is over and whose operation it was (core/wait.ts).
 */
export interface Reporter {
  /**
   * Shows `message` next to the resource. Never throws; the promise (which never rejects) resolves
   * once the engine has the message: only a message that must land before the step ends (the last
   * one of a wait) needs to be awaited.
   */
  progress(message: string): Promise<void>;
  /** A warning shown next to the resource and kept in the run's diagnostics. Never throws. */
  warn(message: string): Promise<void>;
  /** An informational line on the resource's row, resolved once shown. Never throws. */
  note(message: string): Promise<void>;
}

/** A reporter that says nothing (an engine without rows, or a resource without a known row). */
export const SILENT: Reporter = { progress: async () => {}, warn: async () => {}, note: async () => {} };

/** What every operation gets: the configuration, read at call time, and a way to talk to the user. */
export interface OperationContext {
  readonly config: ConfigReader;
  /** Progress and warnings shown on the resource's row. */
  readonly report: Reporter;
}

/** An object a create found under this resource's identity instead of making one. */
export interface FoundObject {
  /** Its identity, as the kind's `identity` forms it from inputs. */
  readonly identity: string;
  /** Its id, as create would return it. */
  readonly id: string;
}

/** What `create` gets beyond the configuration. */
export interface CreateContext extends OperationContext {
  /**
   * Call before adopting an object the platform already holds under this resource's identity (a
   * derived name, a deterministic id, an ownership marker). Returns when adopting it is safe: it
   * cannot be the object a replacement is about to delete, and no other resource holds it in this
   * run, so it is what an interrupted create of this resource left behind. Throws a clear error
   * otherwise; nothing must have been changed yet.
   * @param operation - what create was doing, e.g. `AddNodePool pool "a" of cluster "b"`.
   */
  confirmAdoption(operation: string, found: FoundObject): void;
  /**
   * Call when create returns an object it found rather than made, where the kind decides itself
   * that adopting it is safe (without {@link confirmAdoption}). Throws when another resource of the
   * run holds that object; nothing must have been changed yet.
   */
  adopting(operation: string, id: string): void;
  /**
   * True when the engine records state only when an apply ends: an object in use by another object
   * may still be an interrupted create's leftover, and may be adopted (engine.ts recordsStateAtEnd).
   */
  readonly adoptInUse: boolean;
}

/** The platform side of one resource kind: what `create`, `read`, `update` and `delete` do. */
export interface ResourceOperations<I> {
  create(ctx: CreateContext, inputs: I & Props): Promise<{ id: string; outs: Props }>;
  /**
   * The object's state as read, laid over the old one; a field answered `undefined` is removed
   * (an input back at its default). Returns undefined when the object is gone.
   */
  read(ctx: OperationContext, id: string, props: Props): Promise<Props | undefined>;
  /**
   * Carries out `plan.operations` in order (with `carryOut` of plan/operation.ts), each call
   * sending what its arguments say: the list the preview's report shows is what runs. An empty
   * list with no changed field is the engine retrying a create or update that failed: converge again.
   */
  update(ctx: OperationContext, id: string, olds: Props, news: I & Props, plan: UpdatePlan): Promise<Props>;
  delete(ctx: OperationContext, id: string, props: Props): Promise<void>;
}

/** What the platform reports of one object, as raw inputs and outputs. */
export interface LiveObject {
  /** The inputs the platform reports, in the definitions' keys; without owner, resourceName and autoNamed. */
  inputs: Props;
  /** The outputs, as create records them (secrets such as a kubeconfig included: the schema marks them). */
  outputs: Props;
  /**
   * Inputs `check` reads as the old ones, for kinds whose check derives an id from them (a Peloton
   * pool's or job's UUID): the object's own id is kept instead of one derived for the importer. @default {}
   */
  prior?: Props;
  /** The inputs this object's platform could not report, when they differ by object. @default the definition's `unreported` */
  unreported?: readonly string[];
}

/** How one kind's objects are read by import id (the kind's import.ts, run by core/import.ts; the id's shape and example are in its definition). */
export interface ImportDefinition {
  /** The platform whose endpoint is read. */
  platform: Platform;
  /** The shape of the import id; a wrong shape fails before any call. */
  idPattern: RegExp;
  /**
   * Valid stand-ins for the required inputs the platform cannot report, so that `check` can
   * normalize the reported ones; they never reach the result. @default {}
   */
  placeholders?: Props;
  /** Reads the object with `id` (matching {@link idPattern}). Returns undefined when there is none. Must only read. */
  read(ctx: OperationContext, id: string): Promise<LiveObject | undefined>;
}

/**
 * A create or update that failed after its object came to exist (a wait that timed out, an update
 * halfway): the engine records the object with these properties and the error, so nothing is orphaned,
 * and the next run converges.
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

/** Wraps `err` as a partial-state error when the object exists; a partial-state error passes as it is. */
export function withPartialState(err: unknown, id: string, properties: Props): unknown {
  if (err instanceof PartialStateError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PartialStateError(message, id, properties, [message]);
}

/** The outcome of a check: normalized inputs, or the failures (nothing may be sent then). */
export interface CheckOutcome {
  /** The validated and completed inputs; undefined when any check failed. */
  inputs?: Props;
  failures: CheckFailure[];
}

/** What a change does, as the core plans it. */
export interface DiffOutcome {
  /** Some input changed. */
  changes: boolean;
  /** The inputs whose change forces a replacement (empty for an in-place update or no change). */
  replaces: string[];
  /** For a replacement: the old object goes first. */
  deleteFirst: boolean;
  /** The platform calls the step will make, in order (empty when nothing changes). */
  operations: PlannedOperation[];
  /**
   * Size inputs the platform owns in this change (`capacityOwner: "platform"`, core/capacity.ts):
   * the program's values do not count, and an engine whose plan holds values (OpenTofu) plans the
   * prior ones. @default none
   */
  platformOwned?: readonly string[];
  /** Platform-owned sizes this change moves into new bounds, for engines that show them beside the plan (OpenTofu's warnings). @default none */
  clamps?: readonly Clamp[];
}

/** What a create answers. */
export interface Created {
  id: string;
  /** Inputs and outputs, as the state keeps them. */
  state: Props;
}

/** What a delete answers. */
export interface Deleted {
  /** Why the object was kept rather than deleted (already warned on the resource), when it was. */
  kept?: string;
  /** The object was left on the platform and forgotten, as its `deletionPolicy` says (already warned). */
  abandoned?: boolean;
}
