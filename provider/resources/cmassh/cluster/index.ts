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
  // Two clusters cannot share a name: when the name stays (a user-chosen one, typically), the old
  // cluster must go before the new one comes. Derived names change with every replacement.
  mustDeleteFirst: (olds, news) => olds.name === news.name,
  operations: clusterOperations,
});
