import { lookupList, lookupObject, type Lookup } from "../../../core/definition/lookup";
import { optional, v } from "../../../core/definition/values";
import { stringMap } from "../schema-blocks";
import { statelessJobKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);
const reads = () => import("./import");

/** `peloton:StatelessJob`'s lookups: one job by id or name, and the jobs matching Peloton's query. */
export const statelessJobLookups: readonly Lookup[] = [
  lookupObject(statelessJobKind, "peloton", {
    description:
      "Reads a Peloton stateless job without managing it, by id (GetJob) or by name (GetJobIDFromJobName, then GetJob): its " +
      "spec, desired state, entity version, state, pods by state and last workflow. A name more than one job has fails, listing their ids.",
    args: {
      id: optional(v.uuid(), { description: "The job's id. Give this or `name`.", example: "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d" }),
      name: optional(v.string(), { description: "The job's name. Give this or `id`." }),
    },
    importId: (args) => (typeof args.id === "string" ? args.id : undefined),
    key: (args) => (typeof args.id === "string" ? `id ${q(args.id)}` : `name ${q(args.name ?? "")}`),
    oneOf: ["id", "name"],
    find: async () => (await reads()).jobIdOfName,
  }),
  lookupList(statelessJobKind, "peloton", {
    name: "getStatelessJobs",
    description:
      "Lists the stateless jobs matching Peloton's own query (QueryJobs: every label given, the name, the owner), newest " +
      "first, with what the query reports of each: name, pool, instances, labels, owner, team and state.",
    args: {
      name: optional(v.string(), { description: "Only jobs whose name contains this." }),
      labels: optional(v.custom({ kind: "map", of: { kind: "string" } }, stringMap()), { description: "Only jobs with every one of these labels." }),
      owner: optional(v.string(), { description: "Only jobs of this owner." }),
    },
    items: "statelessJobs",
    fields: ["name", "respoolId", "instanceCount", "labels", "jobOwner", "owningTeam", "jobId", "state"],
    read: async () => (await reads()).queryJobs,
  }),
];

