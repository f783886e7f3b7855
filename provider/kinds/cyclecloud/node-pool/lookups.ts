import { lookupList, lookupObject, type Lookup } from "../../../core/definition/lookup";
import { optional, required, v } from "../../../core/definition/values";
import { ccName, nodePoolKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);
const reads = () => import("./import");

/** `cyclecloud:NodePool`'s lookups: one pool by its id, and the pools Clusterform made in a cluster. */
export const nodePoolLookups: readonly Lookup[] = [
  lookupObject(nodePoolKind, "cyclecloud", {
    description:
      "Reads a CycleCloud node pool by its id without managing it (the cluster's nodes and its status): the nodes of the " +
      "nodearray requested under the id's request base, their count, machine type and the outputs. Name format, offset and " +
      "node attributes are reported only when the base's hash confirms them.",
    args: {
      id: required(v.custom({ kind: "string" }, v.string().validate), {
        description: "The pool's id, `<cluster>/<nodearray>/<request-id base>` (`getNodePools` lists them).",
        example: "demo/execute/clusterform-0123456789abcdef-0a1b2c3d",
      }),
    },
    importId: (args) => String(args.id),
    key: (args) => `id ${q(args.id)}`,
    // Reported when the request base confirms them, so they may be present.
    omitted: [],
  }),
  lookupList(nodePoolKind, "cyclecloud", {
    name: "getNodePools",
    description:
      "Lists the node pools Clusterform made in a CycleCloud cluster (its nodes grouped by nodearray and request base; one " +
      "node list and one cluster status), optionally of one nodearray. A cluster that does not exist has none.",
    args: {
      clusterName: required(v.custom({ kind: "string" }, ccName()), { description: "The cluster." }),
      nodearray: optional(v.custom({ kind: "string" }, ccName()), { description: "Only pools of this nodearray.", default: "every nodearray" }),
    },
    items: "nodePools",
    fields: ["clusterName", "nodearray", "machineType", "placementGroupId", "count", "powerState", "nodeIds", "nodeNames", "readyCount", "coresPerNode"],
    read: async () => (await reads()).listNodePools,
  }),
];
