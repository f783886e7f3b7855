import type { ApiServerTarget, KubernetesHost } from "../kubernetes/host";
import type { CmasshStore, OperationRecord } from "./store";

/** The kine key of a cma-ssh cluster's API server. */
export const apiServerKey = (clusterId: number): string => `cmassh/${clusterId}`;

/**
 * True while a succeeding create must wait for the cluster's API server: the cluster is not
 * RUNNING (and has no kubeconfig) before its API answers.
 */
export function heldForApiServer(kubernetes: KubernetesHost | undefined, op: OperationRecord): boolean {
  return kubernetes !== undefined && op.kind === "create" && op.outcome === "succeed" && !kubernetes.isReady(apiServerKey(op.clusterId));
}

/**
 * Every cluster as the Kubernetes host should serve it: running once provisioned or while a
 * succeeding create provisions it, through upgrades, errors and its deletion; a cluster whose create
 * fails never gets one. Deleted clusters are absent, so their API servers and data go.
 */
export function apiServerTargets(store: CmasshStore): ApiServerTarget[] {
  return store.listClusters().flatMap((c) => {
    const creating = store.inFlightOperations(c.id).some((op) => op.kind === "create" && op.outcome === "succeed");
    return c.provisioned || creating ? [{ key: apiServerKey(c.id), token: c.token, kubernetesVersion: c.k8sVersion, run: true }] : [];
  });
}
