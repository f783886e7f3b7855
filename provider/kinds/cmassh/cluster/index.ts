import { defineResource } from "../../kit";
import { completeName, identityOf } from "../../fields";
import { clusterOperations } from "./operations";
import { clusterPlanner } from "./plan";
import { type ClusterInputs, clusterPolicies, clusterReplaceFields, clusterSchema } from "./schema";
import { versionChangeFailures } from "./version";

/** The handler of `cmassh:Cluster`. */
export const clusterHandler = defineResource<ClusterInputs>({
  schema: clusterSchema,
  policies: clusterPolicies,
  complete: (olds, news) => completeName(olds, news, clusterReplaceFields),
  checkChange: versionChangeFailures,
  // Cluster names are unique on the platform.
  identity: (inputs) => identityOf(inputs.name),
  planner: clusterPlanner,
  operations: clusterOperations,
});
