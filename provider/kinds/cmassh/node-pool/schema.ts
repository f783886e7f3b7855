import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, v } from "../../../core/definition/values";
import { instanceTypeValue, objectNameValue, userLabelsValue } from "../shared-schema";

/** Machine counts a pool may have. */
export const POOL_COUNT = { min: 0, max: 1000 } as const;

/** `cmassh:NodePool`, every field written once. */
export const nodePoolKind = defineFields({
  type: "cmassh:NodePool",
  description:
    "A worker node pool of a cma-ssh cluster. A new `count` is a ScaleNodePool in place; a new instance type, labels, " +
    "name or cluster replaces the pool. Every operation waits until the cluster is RUNNING again.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    clusterName: required(objectNameValue(), { description: "The cluster the pool belongs to, usually `cluster.name`.", policy: replace }),
    name: optional(objectNameValue(), {
      computed: true,
      description: "The pool name, a DNS-1123 label of at most 63 characters, unique in its cluster.",
      default: "the resource name, `-` and a 7-character hash, new for every replacement so that the new pool is added before the old one is deleted",
      policy: replace,
    }),
    instanceType: required(instanceTypeValue(), { description: "Machine type.", policy: replace, example: "standard" }),
    count: required(v.int(POOL_COUNT.min, POOL_COUNT.max), {
      description: "Number of machines. A change is one ScaleNodePool, then a wait until the cluster is RUNNING.",
      policy: inPlace("ScaleNodePool"),
      names: { terraform: "node_count" },
    }),
    labels: optional(userLabelsValue(), { description: "Kubernetes labels for the machines.", default: "{}", policy: replace }),
  },
  outputs: {
    clusterStatus: { type: { kind: "string" }, description: "The status of the pool's cluster when the last operation ended." },
  },
  timeouts: { create: "20m", update: "20m", delete: "20m" },
  importId: {
    shape: "`<cluster name>/<pool name>` (two DNS-1123 labels)",
    example: "prod-eu/general",
    unreported: ["instanceType", "count", "labels"],
  },
});

/** Validated inputs of a cma-ssh node pool. */
export type NodePoolInputs = InputsOf<typeof nodePoolKind.inputs, typeof nodePoolKind.hidden>;

export const nodePoolSchema = nodePoolKind.schema;

/** How each input is changed: only the count changes in place (ScaleNodePool). */
export const nodePoolPolicies = nodePoolKind.policies;

/** Default timeouts of pool operations. */
export const NODE_POOL_TIMEOUTS = nodePoolKind.timeouts;
