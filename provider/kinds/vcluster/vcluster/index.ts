import { defineResource } from "../../kit";
import { completeName, identityOf } from "../../fields";
import { vclusterOperations } from "./operations";
import { type VClusterInputs, vclusterPolicies, vclusterReplaceFields, vclusterSchema } from "./schema";
import { vclusterPlanner } from "./plan";

/** The handler of `vcluster:VCluster`. */
export const vclusterHandler = defineResource<VClusterInputs>({
  schema: vclusterSchema,
  policies: vclusterPolicies,
  complete: (olds, news) => completeName(olds, news, vclusterReplaceFields),
  // Names are unique within a namespace.
  identity: (inputs) => identityOf(inputs.namespace, inputs.name),
  planner: vclusterPlanner,
  operations: vclusterOperations,
});
