import { defineKind } from "../../../core/definition/kind";
import { completeName, identityOf } from "../../fields";
import { snapshotLookups } from "./lookups";
import { snapshotPlanner } from "./plan";
import { snapshotKind } from "./schema";

/** `vcluster:Snapshot`: its fields (schema.ts), identity, planner, operations and import. */
export const vclusterSnapshot = defineKind(snapshotKind, {
  complete: completeName,
  // Snapshot names are unique within a namespace.
  identity: (inputs) => identityOf(inputs.namespace, inputs.name),
  planner: snapshotPlanner,
  operations: async () => (await import("./operations")).snapshotOperations,
  importer: async () => (await import("./import")).snapshotImport,
  lookups: snapshotLookups,
});
