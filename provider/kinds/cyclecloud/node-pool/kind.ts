import { defineKind } from "../../../core/definition/kind";
import { nodePoolLookups } from "./lookups";
import { nodePoolPlanner } from "./plan";
import { poolIdentity } from "./pool";
import { powerChangeFailures } from "./power";
import { hasUnknownIdentity, nodePoolKind } from "./schema";

/** `cyclecloud:NodePool`: its fields (schema.ts), identity, planner, operations and import. */
export const cyclecloudNodePool = defineKind(nodePoolKind, {
  // Request ids are derived from the owner and the fields that force replacement, so a
  // replacement that changes one of them asks under new ids.
  identity: (inputs) => (hasUnknownIdentity(inputs) ? undefined : poolIdentity(inputs)),
  // Off to deallocated, and a new size for a pool that stays parked, are refused before any call.
  checkChange: powerChangeFailures,
  planner: nodePoolPlanner,
  operations: async () => (await import("./operations")).nodePoolOperations,
  importer: async () => (await import("./import")).nodePoolImport,
  lookups: nodePoolLookups,
});
