import { isUnknown } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineKind, type Kind } from "../../../core/definition/kind";
import { catalogPlanner } from "../catalog-plan";
import { policyLookups } from "./lookups";
import { policyIdentity } from "../typed-spec";
import { POLICY_CALLS, type PolicyInputs, policyKind } from "./schema";

type Props = Record<string, unknown>;

/**
 * Fills a derived name from the resource name and a hash of the owner and the spec: an interrupted
 * create derives it again (Senlin keeps no marker on policies: name and spec are how it is found),
 * and a new spec (a replacement) gets a new name. A resource name like `1st` gets a prefix.
 */
function complete(olds: Props, news: PolicyInputs & Props, kind: Kind): PolicyInputs & Props {
  const named = completeName(olds, news, kind);
  const { name } = named;
  if (!named.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return named;
  return { ...named, name: `policy-${name}` };
}

/** `senlin:Policy`: its fields (schema.ts), identity, planner, operations and import. */
export const senlinPolicy = defineKind(policyKind, {
  complete,
  // A replacement has another spec, so old and new never share an identity.
  identity: (inputs) => (isUnknown(inputs.name) || isUnknown(inputs.spec) ? undefined : policyIdentity(inputs.name, inputs.spec)),
  planner: catalogPlanner("Policy", { create: POLICY_CALLS.CreatePolicy, update: POLICY_CALLS.UpdatePolicy, delete: POLICY_CALLS.DeletePolicy }),
  operations: async () => (await import("./operations")).policyOperations,
  importer: async () => (await import("./import")).policyImport,
  lookups: policyLookups,
});
