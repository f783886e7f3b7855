import type { EngineTraits, Holder } from "./engine";
import { ClusterformError } from "./errors";

/** Which object of a replacement goes first. */
export type ReplaceOrder = "delete-first" | "create-first";

/*
 * Why replacements delete first unless the new object provably differs, and why adoption is guarded.
 *
 * Objects get deterministic identities (derived names, ids) so that a create interrupted by a killed
 * run is found and adopted by the next run instead of duplicated. But Pulumi calls Check without
 * the old inputs, and never calls Diff, for `pulumi up --replace` (step_generator.go,
 * isTargetedReplace), exactly as for a brand-new resource: the replacement derives the very
 * identity of the object it replaces, and `create` cannot tell that object from an interrupted
 * create's leftovers. Create-first, it would adopt the old object and the engine would then delete
 * it. Pulumi reasons the same way for its own auto-names: a name without randomness forces
 * delete-before-replace.
 *
 * So a replacement deletes first unless the new object gets another identity (a changed field seeds
 * a new derived name), and a create adopts a found object only when it cannot be the one being
 * replaced: under delete-first the old object is gone before `create` runs; under create-first only
 * an identity other than the old one (which Check saw in this run) may be adopted. Everything else
 * fails before any change, saying how to replace. Where the engine decides the order and does not
 * tell (OpenTofu), creates adopt as under delete-first and holds.ts keeps the engine's later delete
 * of the adopted object from running.
 */

/**
 * The order of a replacement: the program's where the engine lets it choose (`deleteFirst`, else the
 * kind's default), create-first where the provider decides and the identity changes, else
 * delete-first. `clash` when the program asked for create-first and the identity stays: both objects
 * cannot exist at once, so the preview fails (replacementClash).
 * @param identities - the old and the new object's identity, undefined while unknown (preview).
 */
export function replacementOrder(
  mode: EngineTraits["replaceOrder"],
  kindDefault: ReplaceOrder | undefined,
  identities: { before?: string; after?: string },
  deleteFirst?: boolean,
): ReplaceOrder | "clash" {
  const same = identities.before !== undefined && identities.before === identities.after;
  if (mode === "provider") return same ? "delete-first" : "create-first";
  const asked = deleteFirst === undefined ? (kindDefault ?? "delete-first") : deleteFirst ? "delete-first" : "create-first";
  if (mode === "program" && asked === "create-first" && same) return "clash";
  return asked;
}

/**
 * The error of a create-first replacement that would reuse the old object's identity: both cannot
 * exist at once. Raised by Diff, so preview shows it and nothing is changed.
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

/** Per state entry of one provider process: the old identity its Check saw, and the order its Diff planned. */
export class ReplacementGuard {
  private readonly oldIdentities = new Map<string, string>();
  private readonly orders = new Map<string, ReplaceOrder>();

  /** Records the identity of the old object of an update or replacement (Check with old inputs). */
  remember(holder: Holder, oldIdentity: string | undefined): void {
    if (oldIdentity !== undefined) this.oldIdentities.set(holder.key, oldIdentity);
  }

  /** Records the order a Diff planned for the entry's replacement (undefined: no replacement). */
  planned(holder: Holder, order: ReplaceOrder | undefined): void {
    if (order === undefined) this.orders.delete(holder.key);
    else this.orders.set(holder.key, order);
  }

  /**
   * The order a create of this entry runs in: the program's (`deleteFirst`) or the one its Diff
   * planned where the provider decides; delete-first otherwise (no Diff: a new resource or `pulumi
   * up --replace`; or an engine that does not say).
   */
  orderOf(holder: Holder, mode: EngineTraits["replaceOrder"], deleteFirst: boolean | undefined): ReplaceOrder {
    if (mode === "program") return deleteFirst === false ? "create-first" : "delete-first";
    if (mode === "provider") return this.orders.get(holder.key) ?? "delete-first";
    return "delete-first";
  }

  /**
   * Allows adopting an object found under `identity`, or throws: see the comment above.
   * @throws ClusterformError AlreadyExists explaining how to replace.
   */
  confirmAdoption(holder: Holder, order: ReplaceOrder, operation: string, identity: string): void {
    if (order === "delete-first") return;
    const replaced = this.oldIdentities.get(holder.key);
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
