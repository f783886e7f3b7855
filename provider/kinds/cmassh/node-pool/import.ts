import type { ImportDefinition } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { cmasshClient, findCluster } from "../common";
import { NODE_POOL_TIMEOUTS } from "./schema";

const LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";

/**
 * Import of `cmassh:NodePool` by `cluster/pool`, the id create records. cma-ssh has no call that
 * reads a pool (contracts §1.5): the import checks that the cluster exists and takes the pool's
 * name from the id; a pool missing from an existing cluster cannot be told apart without a write,
 * so it is found out by the first scale (which adds it again, as for a pool deleted outside
 * Pulumi). Machine type, count and labels must be written in the program.
 */
export const nodePoolImport: ImportDefinition = {
  platform: "cmassh",
  idPattern: new RegExp(`^${LABEL}/${LABEL}$`),
  placeholders: { instanceType: "standard", count: 0 },
  async read(ctx, id) {
    const [clusterName, name] = id.split("/");
    const cluster = await findCluster(await cmasshClient(ctx.config), clusterName, readDeadline({}, NODE_POOL_TIMEOUTS));
    if (!cluster) return undefined;
    return { inputs: { clusterName, name }, outputs: { clusterStatus: cluster.status } };
  },
};
