import { lookupObject, type Lookup } from "../../../core/definition/lookup";
import { required } from "../../../core/definition/values";
import { objectNameValue } from "../shared-schema";
import { nodePoolKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);

/**
 * `cmassh:NodePool`'s lookup: one pool by cluster and name. cma-ssh has no call that reads or lists
 * pools (contracts §1.5), so there is no list, and the lookup can only confirm the cluster.
 */
export const nodePoolLookups: readonly Lookup[] = [
  lookupObject(nodePoolKind, "cmassh", {
    description:
      "Reads a node pool of a cma-ssh cluster without managing it. cma-ssh has no call that reads a pool: the lookup reads " +
      "the cluster (GetCluster) and reports its status; it fails when the cluster does not exist, but cannot tell whether " +
      "the pool does, nor its machine type, count or labels.",
    args: {
      clusterName: required(objectNameValue(), { description: "The cluster the pool belongs to." }),
      name: required(objectNameValue(), { description: "The pool's name." }),
    },
    importId: (args) => `${args.clusterName}/${args.name}`,
    key: (args) => `pool ${q(args.name)} of cluster ${q(args.clusterName)}`,
  }),
];
