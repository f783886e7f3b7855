import { Code, ConnectError } from "@connectrpc/connect";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { inTransaction } from "../database";
import {
  beginOperation,
  type CmasshEnv,
  type CmasshHandlers,
  loadCluster,
  loadMutableCluster,
  settle,
  toPoolRecords,
  viewCluster,
} from "./context";
import { generateToken, renderKubeconfig } from "./kubeconfig";
import { apiServerKey } from "./kubernetes";
import { alreadyExists, asCreateFailure, assertDns1123Label, assertNodeCount } from "./validation";
import { offeredUpgrades } from "./versions";

type ClusterHandlers = Pick<
  CmasshHandlers,
  | "createCluster"
  | "getCluster"
  | "deleteCluster"
  | "getClusterList"
  | "getVersionInformation"
  | "getUpgradeClusterInformation"
  | "upgradeCluster"
>;

type Handler<K extends keyof ClusterHandlers> = (
  env: CmasshEnv,
  request: Parameters<ClusterHandlers[K]>[0],
  ctx: Parameters<ClusterHandlers[K]>[1],
) => ReturnType<ClusterHandlers[K]>;

const createCluster: Handler<"createCluster"> = (env, request, ctx) => {
  const controlPlane = request.controlPlaneNodes;
  const pools = asCreateFailure(() => {
    assertDns1123Label("cluster name", request.name);
    assertNodeCount("control plane", controlPlane?.count ?? 0);
    return toPoolRecords(request.workerNodePools);
  });
  settle(env);
  // The real server creates a namespace first and reports any failure, this one too, as INTERNAL.
  if (env.store.findCluster(request.name)) throw alreadyExists("namespaces", request.name);
  inTransaction(env.store.db, () => {
    const id = env.store.insertCluster(
      request.name,
      request.k8sVersion,
      {
        instanceType: controlPlane?.instanceType ?? "",
        count: controlPlane?.count ?? 0,
        labels: (controlPlane?.labels ?? []).map(({ name, value }) => ({ name, value })),
      },
      generateToken(),
    );
    for (const pool of pools) env.store.insertPool(id, pool);
    beginOperation(env, ctx, id, "create");
  });
  return { ok: true, cluster: { name: request.name, status: ClusterStatus.PROVISIONING } };
};

const getCluster: Handler<"getCluster"> = (env, request) => {
  const { cluster, status, statusMessage } = loadCluster(env, request.name);
  const kubeconfig = cluster.provisioned ? renderKubeconfig(cluster.name, cluster.token, env.kubernetes?.access(apiServerKey(cluster.id))) : "";
  return { ok: true, cluster: { name: cluster.name, status, statusMessage, kubeconfig } };
};

const deleteCluster: Handler<"deleteCluster"> = (env, request, ctx) => {
  const view = loadCluster(env, request.name);
  // Deleting an object that is already being deleted succeeds in Kubernetes, so a retry is harmless.
  if (view.status !== ClusterStatus.STOPPING) {
    inTransaction(env.store.db, () => beginOperation(env, ctx, view.cluster.id, "delete"));
  }
  return { ok: true, status: "Deleted" };
};

const getClusterList: Handler<"getClusterList"> = (env) => {
  settle(env);
  const clusters = env.store.listClusters().map((cluster) => ({
    name: cluster.name,
    status: viewCluster(env, cluster).status,
  }));
  return { ok: true, clusters };
};

const getVersionInformation: Handler<"getVersionInformation"> = (env) => ({
  ok: true,
  versionInformation: {
    gitCommit: "clusterform-local",
    buildDate: env.startedAt,
    goVersion: `none (Node.js ${process.version})`,
    compiler: "tsc",
    platform: `${process.platform}/${process.arch}`,
  },
});

// Like upstream, the reply leaves `ok` unset. Deliberate difference (docs/local-plane-fidelity.md):
// upstream ignores the name and answers a hard-coded list; offering versions relative to the
// cluster's own version needs the cluster to exist. Without a name (what a new cluster can be
// created at) the answer is the whole catalogue, as upstream's list is for any name.
const getUpgradeClusterInformation: Handler<"getUpgradeClusterInformation"> = (env, request) => {
  if (request.name === "") return { versions: [...env.versions] };
  const { cluster } = loadCluster(env, request.name);
  return { versions: offeredUpgrades(env.versions, cluster.k8sVersion) };
};

const upgradeCluster: Handler<"upgradeCluster"> = (env, request, ctx) => {
  const { cluster } = loadMutableCluster(env, request.name);
  const offered = offeredUpgrades(env.versions, cluster.k8sVersion);
  if (!offered.includes(request.version)) {
    throw new ConnectError(
      `version "${request.version}" is not offered for cluster "${cluster.name}" at ${cluster.k8sVersion}; offered: ${offered.join(", ") || "none"}`,
      Code.FailedPrecondition,
    );
  }
  inTransaction(env.store.db, () => beginOperation(env, ctx, cluster.id, "upgrade", { version: request.version }));
  return { ok: true };
};

/** Cluster-level RPCs: create, read, list, delete, version, upgrade. */
export function createClusterHandlers(env: CmasshEnv): ClusterHandlers {
  return {
    createCluster: (request, ctx) => createCluster(env, request, ctx),
    getCluster: (request, ctx) => getCluster(env, request, ctx),
    deleteCluster: (request, ctx) => deleteCluster(env, request, ctx),
    getClusterList: (request, ctx) => getClusterList(env, request, ctx),
    getVersionInformation: (request, ctx) => getVersionInformation(env, request, ctx),
    getUpgradeClusterInformation: (request, ctx) => getUpgradeClusterInformation(env, request, ctx),
    upgradeCluster: (request, ctx) => upgradeCluster(env, request, ctx),
  };
}
