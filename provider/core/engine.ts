import type { Engine } from "./definition/names";

/**
 * What the calling engine does, as far as the core's safety rules depend on it. Each engine adapter
 * states its engine once (engines/<engine>/engine.ts); the core decides replacement order, adoption
 * of an interrupted create, kept objects and ordering per object from it, so no adapter carries a
 * rule of its own.
 */
export interface EngineTraits {
  /**
   * Who decides a replacement's order:
   * - `program`: the program, per resource (the dynamic SDK sends the `deleteBeforeReplace` option as a
   *   hidden input, default true); a create-first replacement that keeps the identity fails in preview;
   * - `provider`: the provider's Diff answer (the native plugin): create-first when the new object has
   *   another identity, else delete-first;
   * - `engine`: the engine alone, and the provider is not told (OpenTofu's `create_before_destroy`).
   */
  readonly replaceOrder: "program" | "provider" | "engine";
  /**
   * The engine deletes condemned and removed state entries only after it has checked and diffed every
   * resource of the run (Pulumi's post-steps): a Diff that found an object live and unchanged means a
   * later delete of the same object in this run is a leftover entry's, not a real one.
   */
  readonly deletesAfterDiffs: boolean;
  /**
   * The engine records state only when an apply ends (OpenTofu): an object a killed apply made may
   * already be in use by another object that apply made, and is still this resource's to adopt.
   */
  readonly recordsStateAtEnd: boolean;
  /**
   * Several provider processes serve one run of this engine (a Pulumi stack with dynamic resources
   * and native ones): what one adopts, another must not delete, so held objects are shared by every
   * process of the run (holds.ts).
   */
  readonly sharedRun: boolean;
  /** How a user replaces a resource deleting first, for messages. */
  readonly recreateAdvice: string;
  /** Which names the engine's users write fields in (`deletionPolicy`, `deletion_policy`), for messages. */
  readonly names: Engine;
}

/** A state entry as the engine tells it apart: two entries never share a key within one run. */
export interface Holder {
  /** Stable for the entry: a Pulumi URN, or a key an OpenTofu entry keeps in its private state. */
  readonly key: string;
  /** How users know the entry, for messages (a URN, `clusterform_cmassh_cluster (prod)`). */
  readonly label: string;
}
