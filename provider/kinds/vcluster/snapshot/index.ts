import { defineResource } from "../../kit";
import { completeName, identityOf } from "../../fields";
import { snapshotOperations } from "./operations";
import { type SnapshotInputs, snapshotPolicies, snapshotReplaceFields, snapshotSchema } from "./schema";
import { snapshotPlanner } from "./plan";

/** The handler of `vcluster:Snapshot`. */
export const snapshotHandler = defineResource<SnapshotInputs>({
  schema: snapshotSchema,
  policies: snapshotPolicies,
  complete: (olds, news) => completeName(olds, news, snapshotReplaceFields),
  // Snapshot names are unique within a namespace.
  identity: (inputs) => identityOf(inputs.namespace, inputs.name),
  planner: snapshotPlanner,
  operations: snapshotOperations,
});
