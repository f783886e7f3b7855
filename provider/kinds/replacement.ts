import { ClusterformError } from "../core/errors";

type Props = Record<string, unknown>;

/**
 * The order of a replacement. The SDK sends the resource option `deleteBeforeReplace` as a hidden
 * input of the same name (default true); state written before it existed reads as delete-first.
 */
export type ReplaceOrder = "delete-first" | "create-first";

/** The replacement order the inputs ask for. */
export function replaceOrderOf(inputs: Props): ReplaceOrder {
  return inputs.deleteBeforeReplace === false ? "create-first" : "delete-first";
}

/*
 * Why replacements delete first by default, and why adoption is guarded.
 *
 * Objects get deterministic identities (derived names, ids) so that a create interrupted by a killed
 * run is found and adopted by the next run instead of duplicated. But Pulumi calls `check` without
 * the old inputs, and never calls `diff`, for `pulumi up --replace` (pkg/resource/deploy/
 * step_generator.go: isTargetedReplace), exactly as for a brand-new resource: the replacement
 * derives the very identity of the object it replaces, and `create` cannot tell that object from
 * an interrupted create's leftovers. Create-first, it would adopt the old object and the engine
 * would then delete it, leaving the state naming nothing. Pulumi reasons the same way for its own
 * auto-names: a name without randomness forces delete-before-replace.
 *
 * So the SDK defaults `deleteBeforeReplace` to true: the old object is gone before `create` runs,
 * and whatever `create` finds under its identity can only be an interrupted create's leftovers.
 * A program may opt into create-first; then `create` adopts only what provably is not the object
 * being replaced: an identity other than the one `check` saw in the old inputs of this very run
 * (a changed field gave the replacement a new derived name, and an earlier run was killed after
 * creating it). Everything else fails before any change, saying how to replace.
 */

/** Per resource kind: the identity each resource had in the old inputs `check` saw in this run. */
export class ReplacementGuard {
  private readonly oldIdentities = new Map<string, string>();

  /** Records the identity of the old object of an update or replacement (`check` with old inputs). */
  remember(news: Props, oldIdentity: string | undefined): void {
    const key = keyOf(news);
    if (key !== undefined && oldIdentity !== undefined) this.oldIdentities.set(key, oldIdentity);
  }

  /**
   * Allows adopting an object found under `identity`, or throws: see the comment above.
   * @throws ClusterformError AlreadyExists explaining how to replace.
   */
  confirmAdoption(inputs: Props, operation: string, identity: string): void {
    if (replaceOrderOf(inputs) === "delete-first") return;
    const key = keyOf(inputs);
    const replaced = key === undefined ? undefined : this.oldIdentities.get(key);
    if (replaced !== undefined && replaced !== identity) return;
    throw new ClusterformError({
      code: "AlreadyExists",
      platformCode: "EXISTS",
      operation,
      platformMessage:
        `${JSON.stringify(identity)} already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is ` +
        "the object this run replaces (`pulumi up --replace` keeps a derived name) or what an interrupted run left behind; " +
        "nothing was changed. Remove `deleteBeforeReplace: false` from the resource options (the default deletes the old " +
        "object first, then creates the new one, and adopts an interrupted run's leftovers), then run `pulumi up` again",
    });
  }
}

/**
 * The error of a create-first replacement that would reuse the old object's identity: both cannot
 * exist at once. Raised by `diff`, so preview shows it and nothing is changed.
 */
export function replacementClash(identity: string, replaceFields: readonly string[]): ClusterformError {
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "REPLACEMENT_CLASH",
    operation: `planning the replacement of ${JSON.stringify(identity)} (changed: ${replaceFields.join(", ")})`,
    platformMessage:
      "the new object would have the same identity as the old one, and with deleteBeforeReplace: false the new one " +
      "would be created first, which the platform refuses; remove `deleteBeforeReplace: false` (the default deletes the " +
      "old object first) or give the new object another name",
  });
}

/** Resources are told apart by their ownership marker, stable for one resource of one stack. */
function keyOf(inputs: Props): string | undefined {
  return typeof inputs.owner === "string" ? inputs.owner : undefined;
}

/**
 * Deletes that must not run, per resource kind, within one provider process: the object they would
 * delete is the one the state keeps for the same resource. Two ways a state names an object twice:
 *
 * - A replacement created first under the identity of the object it replaces (`pulumi up
 *   --replace` or a tainted resource, whose Check has no old inputs and no Diff; OpenTofu's
 *   `-replace` or a replacement with `create_before_destroy`): `create` adopted that very object
 *   and the engine then deletes the old state's id, which is the same. Skipped when this process's
 *   create of the resource adopted the object of that id.
 * - Such a run was killed before its delete: the checkpoint holds the live state and the condemned
 *   old one, one id. Pulumi deletes condemned states after the program has registered every
 *   resource (performPostSteps, pkg/resource/deploy), so this process has by then diffed the live
 *   state. Skipped when the resource's Diff named the same id and planned no replacement, and no
 *   Check without old inputs (the engine creating the resource after all) came after it.
 *
 * Resources are told apart by their ownership marker, as in {@link ReplacementGuard}.
 */
export class KeptObjects {
  private readonly created = new Map<string, string>();
  private readonly diffedLive = new Map<string, string>();

  /** A check: without old inputs the engine will create the resource, so any delete of its old id is real. */
  checked(inputs: Props, hadOlds: boolean): void {
    const key = keyOf(inputs);
    if (key !== undefined && !hadOlds) this.diffedLive.delete(key);
  }

  /** A diff of the live object `id`: kept unless the diff replaces it. */
  diffed(inputs: Props, id: string, replaces: readonly string[]): void {
    const key = keyOf(inputs);
    if (key === undefined) return;
    if (replaces.length === 0) this.diffedLive.set(key, id);
    else this.diffedLive.delete(key);
  }

  /** A create that adopted the object `id` it found (rather than made one). */
  adoptedAs(inputs: Props, id: string): void {
    const key = keyOf(inputs);
    if (key !== undefined) this.created.set(key, id);
  }

  /** Why deleting `id` of the resource these properties belong to must not run, or undefined when it must. */
  reasonToKeep(props: Props, id: string): string | undefined {
    const key = keyOf(props);
    if (key === undefined) return undefined;
    const advice =
      "to recreate it, replace it deleting first (Pulumi: the resource option deleteBeforeReplace: true with `pulumi up --replace`; " +
      "OpenTofu: without create_before_destroy)";
    if (this.created.get(key) === id) {
      return (
        `kept ${JSON.stringify(id)}: this run's replacement created first under the same identity and adopted that very object, ` +
        `so deleting the old state's copy would delete what the state now names; ${advice}`
      );
    }
    if (this.diffedLive.get(key) === id) {
      return (
        `kept ${JSON.stringify(id)}: the state names it as this resource's live object (an earlier replacement adopted it and ` +
        `was interrupted before it dropped the old state's copy), so only that copy is dropped; ${advice}`
      );
    }
    return undefined;
  }
}
