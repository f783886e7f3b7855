import { defineKind } from "../../../core/definition/kind";
import { isKnownString } from "../common";
import { resourcePoolLookups } from "./lookups";
import { resourcePoolPlanner } from "./plan";
import { completeResourcePool, resourcePoolKind } from "./schema";

/** `peloton:ResourcePool`: its fields (schema.ts), identity, planner, operations and import. */
export const pelotonResourcePool = defineKind(resourcePoolKind, {
  complete: completeResourcePool,
  // The pool id is deterministic (owner and parent); an object found under it may be adopted.
  identity: (inputs) => (isKnownString(inputs.respoolId) ? inputs.respoolId : undefined),
  planner: resourcePoolPlanner,
  operations: async () => (await import("./operations")).resourcePoolOperations,
  importer: async () => (await import("./import")).resourcePoolImport,
  lookups: resourcePoolLookups,
});
