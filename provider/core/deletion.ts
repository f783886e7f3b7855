import type { Props } from "./contract";
import { ClusterformError } from "./errors";
import { type Field, optional, recorded, v } from "./definition/values";

/**
 * What deleting a resource does to its object (`deletionPolicy`, on the kinds that hold a cluster or
 * what runs on one): `delete` deletes it (the default, today's behaviour), `protect` refuses a
 * destroy or a replacement before any platform call, `abandon` lets the engine forget the object
 * and leaves it on the platform.
 */
export const DELETION_POLICIES = ["delete", "protect", "abandon"] as const;
export type DeletionPolicy = (typeof DELETION_POLICIES)[number];

/** The `deletionPolicy` input of a kind that declares it (definition/kind.ts). */
export function deletionPolicyField(): Field<DeletionPolicy, false> {
  return optional(v.oneOf(DELETION_POLICIES), {
    description:
      'What deleting this resource does: `"delete"` deletes the object; `"protect"` makes a destroy, or a change that ' +
      'replaces the object, fail at preview or plan (OpenTofu) or before any platform call (a Pulumi destroy), naming ' +
      'how to turn it off; `"abandon"` removes it from the state and leaves the object on the platform. The policy in ' +
      "the state is the one that counts: change it and apply that change first, then destroy or replace.",
    default: '"delete"',
    policy: recorded,
  });
}

/** The policy a state or inputs say, `delete` when they say none (state written before the field existed). */
export function deletionPolicyOf(props: Props): DeletionPolicy {
  const policy = props.deletionPolicy;
  return policy === "protect" || policy === "abandon" ? policy : "delete";
}

/**
 * The refusal of deleting object `id` of `kind` (type) under the policy its state records: a
 * destroy of a protected object. Undefined when it may go. `field` is the input's name as the
 * engine's users write it.
 */
export function deletionRefused(kind: string, id: string, state: Props, field: string): ClusterformError | undefined {
  if (deletionPolicyOf(state) !== "protect") return undefined;
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "DELETION_PROTECTED",
    operation: `deleting ${kind} ${JSON.stringify(id)}`,
    platformMessage:
      `its ${field} is "protect", so it was not deleted and nothing was sent to the platform; to delete it, set ${field} to "delete" ` +
      '(or "abandon", to leave the object on the platform and forget it) and apply that change first',
  });
}

/**
 * The refusal of replacing object `id` (the change of `replaces` forces one), which would delete or
 * forget it: its state says `protect` or `abandon` (an abandoned object under the new one's name
 * would be found again by the new one's create). Undefined when it may be replaced.
 */
export function replacementRefused(kind: string, id: string, olds: Props, replaces: readonly string[], field: string): ClusterformError | undefined {
  const policy = deletionPolicyOf(olds);
  if (policy === "delete") return undefined;
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "DELETION_PROTECTED",
    operation: `planning the replacement of ${kind} ${JSON.stringify(id)} (changed: ${replaces.join(", ")})`,
    platformMessage:
      `its ${field} is ${JSON.stringify(policy)} and a replacement deletes the old object; nothing was sent to the platform. ` +
      `To replace it, set ${field} to "delete" and apply that change first, or undo the change of ${replaces.join(", ")}`,
  });
}
