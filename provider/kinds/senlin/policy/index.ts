import { isUnknown } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineResource } from "../../kit";
import { policyIdentity, policyOperations } from "./operations";
import { type PolicyInputs, policyKind } from "./schema";
import { catalogPlanner } from "../catalog-plan";

type Props = Record<string, unknown>;

/**
 * Fills a derived name from the resource name and a hash of the owner and the spec: an interrupted
 * create derives it again (Senlin keeps no marker on policies: name and spec are how it is found),
 * and a new spec (a replacement) gets a new name. A resource name like `1st` gets a prefix.
 */
function complete(olds: Props, news: PolicyInputs & Props): PolicyInputs & Props {
  const named = completeName(olds, news, (inputs) => [inputs.spec]);
  const { name } = named;
  if (!named.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return named;
  return { ...named, name: `policy-${name}` };
}

/** The handler of `senlin:Policy`. */
export const policyHandler = defineResource<PolicyInputs>({
  schema: policyKind.schema,
  policies: policyKind.policies,
  complete,
  replaceOrder: policyKind.replaceOrder,
  // A replacement has another spec, so old and new never share an identity.
  identity: (inputs) => (isUnknown(inputs.name) || isUnknown(inputs.spec) ? undefined : policyIdentity(inputs.name, inputs.spec)),
  planner: catalogPlanner("Policy"),
  operations: policyOperations,
});
