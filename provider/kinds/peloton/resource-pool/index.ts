import { defineResource } from "../../kit";
import { isKnownString } from "../common";
import { resourcePoolOperations } from "./operations";
import { completeResourcePool, type ResourcePoolInputs, resourcePoolPolicies, resourcePoolSchema } from "./schema";
import { resourcePoolPlanner } from "./plan";

/** The handler of `peloton:ResourcePool`. */
export const resourcePoolHandler = defineResource<ResourcePoolInputs>({
  schema: resourcePoolSchema,
  policies: resourcePoolPolicies,
  complete: completeResourcePool,
  // The pool id is deterministic (owner and parent); an object found under it may be adopted.
  identity: (inputs) => (isKnownString(inputs.respoolId) ? inputs.respoolId : undefined),
  planner: resourcePoolPlanner,
  operations: resourcePoolOperations,
});
