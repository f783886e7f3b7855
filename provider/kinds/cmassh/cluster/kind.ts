import { defineKind } from "../../../core/definition/kind";
import { completeName, identityOf } from "../../fields";
import { clusterLookups } from "./lookups";
import { clusterPlanner } from "./plan";
import { clusterKind } from "./schema";
import { versionChangeFailures } from "./version";

/** `cmassh:Cluster`: its fields (schema.ts), identity, planner, operations and import. */
export const cmasshCluster = defineKind(clusterKind, {
  complete: completeName,
  checkChange: versionChangeFailures,
  // Cluster names are unique on the platform.
  identity: (inputs) => identityOf(inputs.name),
  planner: clusterPlanner,
  operations: async () => (await import("./operations")).clusterOperations,
  importer: async () => (await import("./import")).clusterImport,
  lookups: clusterLookups,
});
