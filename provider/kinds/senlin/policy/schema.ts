import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, v } from "../../../core/definition/values";
import { senlinName } from "../cluster/schema";
import { typedSpec } from "../typed-spec";

/** `senlin:Policy`: the name changes in place; a new spec is a new policy, created first. */
export const policyKind = defineFields({
  type: "senlin:Policy",
  description:
    "An OpenStack Senlin policy (deletion, scaling, affinity, batch, health, ...). The name changes in place (one " +
    "PATCH); a changed spec is a new policy, created before the old one is deleted, so that a cluster given the " +
    "policy's `id` detaches the old one and attaches the new one first. Replacements are create-first by default for " +
    "this kind (Senlin refuses to delete an attached policy). Senlin keeps no metadata on policies: an interrupted " +
    "create is recognized by its name and spec.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  replaceOrder: "create-first",
  inputs: {
    name: optional(v.custom({ kind: "string" }, senlinName()), {
      computed: true,
      description:
        "The policy name: an ASCII letter, then letters, digits, `_`, `.` or `-` (at most 254). Senlin names need not be " +
        "unique: clusters should refer to the policy by its `id`.",
      default: "the resource name, `-` and a 7-character hash of the owner and the spec (a new spec gets a new name)",
      policy: inPlace("UpdatePolicy"),
    }),
    spec: required(typedSpec("policy", '`{ type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } }`'), {
      description: "What the policy does. Senlin never changes a policy's spec: a new spec is a new policy, with a new derived name, " +
        "created before the old one is deleted.",
      policy: replace,
      note: "Senlin policies are immutable apart from their name",
    }),
  },
  outputs: {
    policyType: { type: { kind: "string" }, description: "`<type>-<version>`, e.g. `senlin.policy.deletion-1.0`." },
  },
  timeouts: { create: "5m", update: "5m", delete: "5m" },
  importId: {
    shape: "the Senlin policy id (a UUID, as `openstack cluster policy show` prints it)",
    example: "7c3d9e2f-1a4b-4c5d-9e6f-0a1b2c3d4e5f",
    unreported: [],
  },
});

/** Validated inputs of a Senlin policy. */
export type PolicyInputs = InputsOf<typeof policyKind.inputs, typeof policyKind.hidden>;

/** Default timeouts: a policy is one synchronous call. */
export const POLICY_TIMEOUTS = policyKind.timeouts;
