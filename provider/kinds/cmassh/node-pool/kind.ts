import { defineKind } from "../../../core/definition/kind";
import { completeName, identityOf } from "../../fields";
import { nodePoolLookups } from "./lookups";
import { nodePoolPlanner } from "./plan";
import { nodePoolKind } from "./schema";

/** `cmassh:NodePool`: its fields (schema.ts), identity, planner, operations and import. */
export const cmasshNodePool = defineKind(nodePoolKind, {
  complete: completeName,
  // Pool names are unique per cluster.
  identity: (inputs) => identityOf(inputs.clusterName, inputs.name),
  planner: nodePoolPlanner,
  operations: async () => (await import("./operations")).nodePoolOperations,
  importer: async () => (await import("./import")).nodePoolImport,
  lookups: nodePoolLookups,
});
