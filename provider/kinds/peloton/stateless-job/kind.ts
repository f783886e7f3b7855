import { defineKind } from "../../../core/definition/kind";
import { isKnownString } from "../common";
import { statelessJobLookups } from "./lookups";
import { statelessJobPlanner } from "./plan";
import { completeStatelessJob, statelessJobKind } from "./schema";

/** `peloton:StatelessJob`: its fields (schema.ts), identity, planner, operations and import. */
export const pelotonStatelessJob = defineKind(statelessJobKind, {
  complete: completeStatelessJob,
  // The job id is deterministic (owner and pool); a job found under it may be adopted.
  identity: (inputs) => (isKnownString(inputs.jobId) ? inputs.jobId : undefined),
  planner: statelessJobPlanner,
  operations: async () => (await import("./operations")).statelessJobOperations,
  importer: async () => (await import("./import")).statelessJobImport,
  lookups: statelessJobLookups,
});
