import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { type CmasshEnv, settle, viewCluster } from "./context";
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
    };
  });
  return { clusters };
}
