import type { ImportDefinition } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { cmasshClient, findCluster } from "../common";
import { CLUSTER_TIMEOUTS } from "./schema";

/**
 * Import of `cmassh:Cluster` by its name, the id create records. cma-ssh's GetCluster reports only
 * the name, the status and the kubeconfig: the version and the control plane must be written in
 * the program (a preview right after the import takes them as they are written).
 */
export const clusterImport: ImportDefinition = {
  platform: "cmassh",
  idPattern: /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/,
  placeholders: { kubernetesVersion: "0.0.1", controlPlane: { instanceType: "standard", count: 1 } },
  async read(ctx, id) {
    const cluster = await findCluster(await cmasshClient(ctx.config), id, readDeadline({}, CLUSTER_TIMEOUTS));
    if (!cluster) return undefined;
    return {
      inputs: { name: cluster.name },
      outputs: { status: cluster.status, statusMessage: cluster.statusMessage, kubeconfig: cluster.kubeconfig },
    };
  },
};
