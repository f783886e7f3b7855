import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { BadRequest } from "../admin";
import { type CmasshEnv, settle, viewCluster } from "./context";
import { renderKubeconfig } from "./kubeconfig";
import { apiServerKey } from "./kubernetes";
import type { MachineSet, PoolRecord } from "./store";

/** One cluster as the admin API shows it to tests. */
export interface ClusterAdminView {
  name: string;
  /** Status name, e.g. `"RUNNING"`. */
  status: string;
  statusMessage: string;
  k8sVersion: string;
  controlPlane: MachineSet;
  pools: PoolRecord[];
  operationsInFlight: number;
  /** The operations in flight, oldest first: what each does and when it started and ends (ISO 8601). */
  operations: { kind: string; startedAt: string; endsAt: string; version?: string }[];
}

/** Full internal view of every cluster, settled at the current time. */
export function listClustersForAdmin(env: CmasshEnv): { clusters: ClusterAdminView[] } {
  settle(env);
  const clusters = env.store.listClusters().map((cluster) => {
    const view = viewCluster(env, cluster);
    return {
      name: cluster.name,
      status: ClusterStatus[view.status],
      statusMessage: view.statusMessage,
      k8sVersion: cluster.k8sVersion,
      controlPlane: cluster.controlPlane,
      pools: env.store.listPools(cluster.id),
      operationsInFlight: view.inFlight.length,
      operations: view.inFlight.map((op) => ({
        kind: op.kind,
        startedAt: new Date(op.startMs).toISOString(),
        endsAt: new Date(op.endMs).toISOString(),
        ...(op.payload.version ? { version: op.payload.version } : {}),
      })),
    };
  });
  return { clusters };
}

/**
 * `GET /_local/cmassh/kubeconfig?name=<cluster>`: the admin kubeconfig of a provisioned cluster (the
 * console's download). A secret: answered to the caller only, never logged.
 */
export function kubeconfigForAdmin(env: CmasshEnv, url: URL): { kubeconfig: string } {
  settle(env);
  const name = url.searchParams.get("name") ?? "";
  const cluster = env.store.findCluster(name);
  if (!cluster?.provisioned) throw new BadRequest(`cluster "${name}" has no kubeconfig: it does not exist or is not provisioned`);
  return { kubeconfig: renderKubeconfig(cluster.name, cluster.token, env.kubernetes?.access(apiServerKey(cluster.id))) };
}
