import { defineResource } from "../../kit";
import { completeName, identityOf } from "../../fields";
import { nodePoolOperations } from "./operations";
import { type NodePoolInputs, nodePoolPolicies, nodePoolReplaceFields, nodePoolSchema } from "./schema";
import { nodePoolPlanner } from "./plan";

/** The handler of `cmassh:NodePool`. */
export const nodePoolHandler = defineResource<NodePoolInputs>({
  schema: nodePoolSchema,
  policies: nodePoolPolicies,
  complete: (olds, news) => completeName(olds, news, nodePoolReplaceFields),
  // Pool names are unique per cluster.
  identity: (inputs) => identityOf(inputs.clusterName, inputs.name),
  planner: nodePoolPlanner,
  operations: nodePoolOperations,
});
