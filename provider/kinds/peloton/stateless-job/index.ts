import { defineResource } from "../../kit";
import { isKnownString } from "../common";
import { statelessJobOperations } from "./operations";
import { completeStatelessJob, type StatelessJobInputs, statelessJobPolicies, statelessJobSchema } from "./schema";
import { statelessJobPlanner } from "./plan";

/** The handler of `peloton:StatelessJob`. */
export const statelessJobHandler = defineResource<StatelessJobInputs>({
  schema: statelessJobSchema,
  policies: statelessJobPolicies,
  complete: completeStatelessJob,
  // The job id is deterministic (owner and pool); a job found under it may be adopted.
  identity: (inputs) => (isKnownString(inputs.jobId) ? inputs.jobId : undefined),
  planner: statelessJobPlanner,
  operations: statelessJobOperations,
});
