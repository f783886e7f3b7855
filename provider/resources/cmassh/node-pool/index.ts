import { defineResource } from "../../kit";
import { completeName } from "../shared-schema";
import { nodePoolOperations } from "./operations";
import { type NodePoolInputs, nodePoolPolicies, nodePoolReplaceFields, nodePoolSchema } from "./schema";

/** The handler of `cmassh:NodePool`. */
export const nodePoolHandler = defineResource<NodePoolInputs>({
  schema: nodePoolSchema,
  policies: nodePoolPolicies,
  complete: (olds, news) => completeName(olds, news, nodePoolReplaceFields),
  // Pool names are unique per cluster: a name kept in the same cluster must go before it comes back.
  mustDeleteFirst: (olds, news) => olds.name === news.name && olds.clusterName === news.clusterName,
  operations: nodePoolOperations,
});
