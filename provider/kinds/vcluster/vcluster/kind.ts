import { defineKind } from "../../../core/definition/kind";
import { completeName, identityOf } from "../../fields";
import { vclusterLookups } from "./lookups";
import { vclusterPlanner } from "./plan";
import { vclusterKind } from "./schema";

/** `vcluster:VCluster`: its fields (schema.ts), identity, planner, operations and import. */
export const vclusterVCluster = defineKind(vclusterKind, {
  complete: completeName,
  // Names are unique within a namespace.
  identity: (inputs) => identityOf(inputs.namespace, inputs.name),
  planner: vclusterPlanner,
  operations: async () => (await import("./operations")).vclusterOperations,
  importer: async () => (await import("./import")).vclusterImport,
  lookups: vclusterLookups,
});
