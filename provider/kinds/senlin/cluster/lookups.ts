import type { Lookup } from "../../../core/definition/lookup";
import { optional, v } from "../../../core/definition/values";
import { filter, senlinList, senlinObject } from "../lookups";
import { clusterKind } from "./schema";

/** The statuses a Senlin cluster can be in, as its list filter takes them. */
const STATUSES = ["INIT", "ACTIVE", "CREATING", "UPDATING", "RESIZING", "DELETING", "CHECKING", "RECOVERING", "CRITICAL", "ERROR", "WARNING", "OPERATING"] as const;

/** `senlin:Cluster`'s lookups: one cluster by id, and the clusters of the project with Senlin's filters. */
export const clusterLookups: readonly Lookup[] = [
  senlinObject(
    clusterKind,
    "cluster",
    "Reads a Senlin cluster by id without managing it: name, profile, sizes, capacity, metadata, config, attached policies " +
      "(GET /v1/clusters/{id} and its policy bindings) and status.",
    // How a profile change is carried out, not a state: never reported.
    ["profileOnly"],
  ),
  senlinList(clusterKind, {
    name: "getClusters",
    description:
      "Lists the project's Senlin clusters with Senlin's own filters (GET /v1/clusters?name=&status=): each cluster's id, " +
      "name, profile, sizes, capacity, metadata, config and status. Attached policies are `getCluster`'s (another call per cluster).",
    args: {
      name: filter("Only clusters of this name (Senlin names need not be unique)."),
      status: optional(v.oneOf(STATUSES), { description: "Only clusters in this status." }),
    },
    items: "clusters",
    fields: ["name", "profile", "minSize", "maxSize", "desiredCapacity", "actionTimeout", "metadata", "config", "status", "statusReason", "nodeIds", "profileName"],
    read: async () => (await import("./import")).listClusters,
  }),
];
