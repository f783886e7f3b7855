import { defineResource } from "../../kit";
import { completeName } from "../shared-schema";
import { clusterOperations } from "./operations";
import { type ClusterInputs, clusterPolicies, clusterReplaceFields, clusterSchema } from "./schema";
import { versionChangeFailures } from "./version";

/** The handler of `cmassh:Cluster`. */
export const clusterHandler = defineResource<ClusterInputs>({
  schema: clusterSchema,
  policies: clusterPolicies,
  complete: (olds, news) => completeName(olds, news, clusterReplaceFields),
  checkChange: versionChangeFailures,
  // Two clusters cannot share a name: a user-chosen name that stays must go before it comes back.
  mustDeleteFirst: (olds, news) => news.autoNamed !== true && olds.name === news.name,
  operations: clusterOperations,
});
