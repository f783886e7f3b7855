import { toJson } from "@bufbuild/protobuf";
import { z } from "zod";
import { Phase, VClusterSpecSchema } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { BadRequest } from "../admin";
import { messageOf, settleDue, type VclusterEnv, viewOf } from "./context";
import type { UpdateMaskRecord } from "./journal";
import { snapshotStatus } from "./view";
import { MAX_PODS } from "./drain";
import { SnapshotStatus } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";

/** One vcluster as the admin API shows it to tests. */
export interface VclusterAdminView {
  id: string;
  namespace: string;
  name: string;
  /** Phase name, e.g. `"RUNNING"`. */
  phase: string;
  /** The spec in protobuf JSON with proto field names. */
  spec: unknown;
  labels: Record<string, string>;
  replicas: { desired: number };
  generation: number;
  reason: string;
  message: string;
  operationsInFlight: string[];
}

/** Every vcluster, settled at the current time. */
export function listVclustersForAdmin(env: VclusterEnv): { vclusters: VclusterAdminView[] } {
  settleDue(env);
  const vclusters = env.clusters.list().map((cluster) => {
    const view = viewOf(env, cluster);
    return {
      id: cluster.id,
      namespace: cluster.namespace,
      name: cluster.name,
      phase: Phase[view.phase],
      spec: toJson(VClusterSpecSchema, cluster.spec, { useProtoFieldName: true }),
      labels: cluster.labels,
      replicas: { desired: cluster.spec.replicas },
      generation: cluster.generation,
      reason: cluster.reason,
      message: cluster.message,
      operationsInFlight: view.inFlight.map((op) => op.kind),
    };
  });
  return { vclusters };
}

/** Every live snapshot with its status name. */
export function listSnapshotsForAdmin(env: VclusterEnv): { snapshots: object[] } {
  settleDue(env);
  const nowMs = env.clock.now();
  const snapshots = env.snapshots.list(nowMs).map((s) => ({
    id: s.id,
    name: s.name,
    namespace: s.namespace,
    vclusterName: s.vclusterName,
    status: SnapshotStatus[snapshotStatus(s, nowMs)],
    expireTime: s.expireMs > 0 ? new Date(s.expireMs).toISOString() : null,
  }));
  return { snapshots };
}

/** Every UpdateVCluster mask received, oldest first. */
export function listUpdateMasksForAdmin(env: VclusterEnv): { updates: UpdateMaskRecord[] } {
  return { updates: env.journal.updateMasks() };
}

/**
 * `GET /_local/vcluster/kubeconfig?namespace=<ns>&name=<name>`: the admin kubeconfig of a RUNNING
 * vcluster (the console's download), as GetVCluster with `include_kubeconfig` gives it. A secret.
 */
export function kubeconfigForAdmin(env: VclusterEnv, url: URL): { kubeconfig: string } {
  settleDue(env);
  const namespace = url.searchParams.get("namespace") ?? "default";
  const name = url.searchParams.get("name") ?? "";
  const cluster = env.clusters.find(namespace, name);
  const encoded = cluster ? messageOf(env, cluster, true).status?.kubeconfig : undefined;
  if (!encoded) throw new BadRequest(`vcluster "${namespace}/${name}" has no kubeconfig: it does not exist or is not RUNNING`);
  return { kubeconfig: Buffer.from(encoded, "base64").toString("utf8") };
}

const workloadsBody = z.strictObject({ namespace: z.string().min(1), name: z.string().min(1), pods: z.number().int().min(0).max(MAX_PODS) });

/**
 * `POST /_local/vcluster/workloads` `{namespace, name, pods}`: how many pods the vcluster runs, which
 * a drained suspend evicts one at a time (drain.ts); a test sets many to make a drain time out.
 */
export function setWorkloadsForAdmin(env: VclusterEnv, body: unknown): { pods: number } {
  const parsed = workloadsBody.safeParse(body);
  if (!parsed.success) throw new BadRequest(`invalid body: expected {"namespace": "<ns>", "name": "<vcluster>", "pods": 0 to ${MAX_PODS}}`);
  settleDue(env);
  const { namespace, name, pods } = parsed.data;
  const cluster = env.clusters.find(namespace, name);
  if (!cluster) throw new BadRequest(`vcluster "${namespace}/${name}" not found`);
  env.workloads.setPods(cluster.id, pods);
  return { pods };
}
