import { lookupList, lookupObject, type Lookup } from "../../../core/definition/lookup";
import { optional, v } from "../../../core/definition/values";
import { resourcePoolKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);
const reads = () => import("./import");

/** `peloton:ResourcePool`'s lookups: one pool by id or path, and every pool. */
export const resourcePoolLookups: readonly Lookup[] = [
  lookupObject(resourcePoolKind, "peloton", {
    description:
      "Reads a Peloton resource pool without managing it, by id (GetResourcePool) or by its absolute path (LookupResourcePoolID, " +
      "then GetResourcePool): its spec, parent, path and usage. Give `respoolId` of the result to a job instead of writing an id down.",
    args: {
      id: optional(v.uuid(), { description: "The pool's id. Give this or `path`.", example: "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d" }),
      path: optional(v.string(), { description: "The pool's absolute path, e.g. `/infrastructure/compute`. Give this or `id`.", example: "/infrastructure/compute" }),
    },
    importId: (args) => (typeof args.id === "string" ? args.id : undefined),
    key: (args) => (typeof args.id === "string" ? `id ${q(args.id)}` : `path ${q(args.path ?? "")}`),
    oneOf: ["id", "path"],
    find: async () => (await reads()).poolIdAtPath,
  }),
  lookupList(resourcePoolKind, "peloton", {
    name: "getResourcePools",
    description: "Lists every Peloton resource pool, the root included (QueryResourcePools), with its spec, parent, path and usage.",
    args: {},
    items: "resourcePools",
    fields: ["name", "parent", "resources", "policy", "controllerLimit", "slackLimit", "owningTeam", "ldapGroups", "description", "respoolId", "path", "parentId", "usages"],
    read: async () => (await reads()).listResourcePools,
  }),
];
