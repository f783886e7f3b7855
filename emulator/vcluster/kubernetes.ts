import { Phase } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { ApiServerTarget, KubernetesHost } from "../kubernetes/host";
import type { ClusterStore, OperationKind, OperationRecord } from "./store";

/** The kine key of a vcluster's API server. */
export const apiServerKey = (clusterId: string): string => `vcluster/${clusterId}`;

/** Operations that end in RUNNING: with `--kubernetes` they end only once the API server answers. */
const ENDS_RUNNING: ReadonlySet<OperationKind> = new Set(["create", "resume", "restore"]);

/**
 * True while an operation that would make the cluster RUNNING must wait for its API server: a
 * vcluster is not RUNNING before its API answers, so clients that act on RUNNING find it serving.
 */
export function heldForApiServer(kubernetes: KubernetesHost | undefined, op: OperationRecord): boolean {
  return kubernetes !== undefined && op.outcome === "succeed" && ENDS_RUNNING.has(op.kind) && !kubernetes.isReady(apiServerKey(op.clusterId));
}

/**
 * Every vcluster as the Kubernetes host should serve it: running while its settled phase is RUNNING
 * or an operation is bringing it there, stopped with its data while SUSPENDED or in ERROR. Deleted
 * vclusters are absent, so their API servers and data go.
 */
export function apiServerTargets(clusters: ClusterStore): ApiServerTarget[] {
  return clusters.list().map((c) => {
    const inFlight = clusters.inFlight(c.id);
    const starting = inFlight.some((op) => op.outcome === "succeed" && ENDS_RUNNING.has(op.kind));
    return { key: apiServerKey(c.id), token: c.token, kubernetesVersion: c.spec.kubernetesVersion, run: c.basePhase === Phase.RUNNING || starting };
  });
}
