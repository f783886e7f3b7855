import type { ImportDefinition, OperationContext, Props } from "../../../core/contract";
import { ClusterformError } from "../../../core/errors";
import { inVersionLine } from "../../../core/validation";
import { readDeadline } from "../../fields";
import { cmasshClient, findCluster } from "../common";
import { CLUSTER_TIMEOUTS } from "./schema";
import { compareVersions } from "./version";

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

/** Every cluster of the endpoint (GetClusterList: names and statuses), for `getClusters`. */
export async function listClusters(ctx: OperationContext): Promise<Props[]> {
  const clusters = await (await cmasshClient(ctx.config)).getClusterList({ deadline: readDeadline({}, CLUSTER_TIMEOUTS) });
  return clusters.map((c) => ({ id: c.name, name: c.name, status: c.status, statusMessage: c.statusMessage }));
}

/** Versions, oldest first, and the newest. */
function versionsResult(versions: readonly string[]): Props {
  const sorted = [...versions].sort(compareVersions);
  return { versions: sorted, ...(sorted.length > 0 ? { newest: sorted[sorted.length - 1] } : {}) };
}

/**
 * The versions a new cluster can be created at, for `getVersions`: GetUpgradeClusterInformation
 * without a cluster name (the upstream server ignores the name and answers its list; the local
 * control plane answers its whole catalogue for the empty name), only those of the line `prefix`
 * names when it is given.
 */
export async function offeredVersions(ctx: OperationContext, args: Props): Promise<Props> {
  const offered = await (await cmasshClient(ctx.config)).getUpgradeClusterInformation("", { deadline: readDeadline({}, CLUSTER_TIMEOUTS) });
  const prefix = args.prefix === undefined ? undefined : String(args.prefix);
  return versionsResult(prefix === undefined ? offered : offered.filter((version) => inVersionLine(version, prefix)));
}

/** The versions cluster `name` may move to, for `getClusterUpgrades`; undefined when there is no such cluster. */
export async function clusterUpgrades(ctx: OperationContext, args: Props): Promise<Props | undefined> {
  const name = String(args.name);
  try {
    const versions = await (await cmasshClient(ctx.config)).getUpgradeClusterInformation(name, { deadline: readDeadline({}, CLUSTER_TIMEOUTS) });
    return { name, ...versionsResult(versions) };
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
    throw err;
  }
}
