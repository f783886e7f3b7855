import { defineResource } from "../../kit";
import { nodePoolOperations, poolIdentity } from "./operations";
import { hasUnknownIdentity, type NodePoolInputs, nodePoolPolicies, nodePoolSchema } from "./schema";
import { nodePoolPlanner } from "./plan";

/** The handler of `cyclecloud:NodePool`. */
export const nodePoolHandler = defineResource<NodePoolInputs>({
  schema: nodePoolSchema,
  policies: nodePoolPolicies,
  // Request ids are derived from the owner and the fields that force replacement, so a
  // replacement that changes one of them asks under new ids.
  identity: (inputs) => (hasUnknownIdentity(inputs) ? undefined : poolIdentity(inputs)),
  planner: nodePoolPlanner,
  operations: nodePoolOperations,
});
