import { clone } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Phase, VClusterSpecSchema, WatchEventType } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { type ClusterView, keyOf, loadInPhase, messageOf, mutate, newId, requireName, startOperation, type VclusterEnv } from "./context";
import { DRAIN_REASON, drainTimeoutMessage, planDrain } from "./drain";
import type { VclusterHandlers } from "./cluster-handlers";
import { apiServerEndpoint, generateToken, type KubeconfigUser, renderKubeconfig, toBase64 } from "./kubeconfig";
import { apiServerKey } from "./kubernetes";
import { createSnapshot } from "./snapshot-actions";
import { failedPrecondition, invalidArgument } from "./validation";
import type { SuspendVClusterRequest } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";

/** A token kubeconfig's lifetime when the request asks for none, and the longest allowed. */
export const TOKEN_VALIDITY_HOURS = { default: 24, max: 8760 } as const;

/** Kubeconfig formats: how the user authenticates, and whether the document expires. */
const KUBECONFIG_FORMATS: Readonly<Record<string, (c: { name: string; namespace: string; token: string }) => KubeconfigUser>> = {
  "": (c) => ({ kind: "token", token: c.token }),
  default: (c) => ({ kind: "token", token: c.token }),
  exec: (c) => ({ kind: "exec", name: c.name, namespace: c.namespace }),
  token: () => ({ kind: "token", token: generateToken() }),
};

/**
 * FAILED_PRECONDITION while a drained suspend evicts the vcluster's pods: the vcluster reads
 * RUNNING, but the suspend has the control plane until the drain ends.
 */
function assertNotDraining(view: ClusterView, action: string): void {
  if (!view.inFlight.some((op) => op.kind === "drain")) return;
  throw failedPrecondition(`cannot ${action} vcluster ${JSON.stringify(keyOf(view.cluster.namespace, view.cluster.name))} while it drains its workloads for a suspend`);
}

/**
 * The suspend options' own rules: the reference server ignores a timeout without a drain and a
 * name without a snapshot, the plane refuses them so that a client sending them learns it.
 */
function assertSuspendOptions(request: SuspendVClusterRequest): void {
  if (request.drainTimeoutSeconds < 0) throw invalidArgument("drain_timeout_seconds", request.drainTimeoutSeconds, "must be 0 (no timeout) or more");
  if (request.drainTimeoutSeconds > 0 && !request.drainWorkloads) {
    throw invalidArgument("drain_timeout_seconds", request.drainTimeoutSeconds, "applies only with drain_workloads: true");
  }
  if (request.snapshotName !== "" && !request.createSnapshot) throw invalidArgument("snapshot_name", request.snapshotName, "applies only with create_snapshot: true");
}

type ActionHandlers = Pick<
  VclusterHandlers,
  "scaleVCluster" | "suspendVCluster" | "resumeVCluster" | "snapshotVCluster" | "getVClusterKubeconfig"
>;

/** Scale, suspend, resume, snapshot and kubeconfig: the calls that act on one existing vcluster. */
export function createActionHandlers(env: VclusterEnv): ActionHandlers {
  return {
    scaleVCluster(request, ctx) {
      requireName(request.name);
      if (request.replicas < 0) throw invalidArgument("replicas", request.replicas, "must be 0 (unchanged) or more");
      const view = loadInPhase(env, request.namespace, request.name, "scale", [Phase.RUNNING]);
      assertNotDraining(view, "scale");
      const { cluster } = view;
      const failureMessage = ctx.takeOperationFailure();
      return mutate(env, ({ emit }) => {
        const spec = clone(VClusterSpecSchema, cluster.spec);
        if (request.replicas > 0) spec.replicas = request.replicas;
        if (request.resources) spec.resources = request.resources;
        env.clusters.update(cluster.id, { spec, generation: cluster.generation + 1, updateMs: env.clock.now() });
        const operationId = startOperation(env, cluster.id, "scale", { failureMessage, payload: { readyReplicas: cluster.spec.replicas } });
        emit(WatchEventType.MODIFIED, cluster.id);
        return { vcluster: messageOf(env, env.clusters.findById(cluster.id)!), operationId };
      });
    },

    // Without a drain, synchronous as in the reference server: there is no "suspending" phase to
    // pass through. With one, the snapshot is taken first (the answer carries it), then the pods are
    // evicted while the vcluster stays RUNNING; the control plane stops when the last one is gone, or
    // the drain times out and the vcluster keeps running (lifecycle.ts).
    suspendVCluster(request, ctx) {
      requireName(request.name);
      assertSuspendOptions(request);
      const view = loadInPhase(env, request.namespace, request.name, "suspend", [Phase.RUNNING]);
      assertNotDraining(view, "suspend");
      const { cluster } = view;
      const failureMessage = ctx.takeOperationFailure();
      return mutate(env, ({ emit }) => {
        const nowMs = env.clock.now();
        const snapshot = request.createSnapshot
          ? createSnapshot(env, cluster, {
              name: request.snapshotName || `${cluster.name}-suspend-${Math.floor(nowMs / 1000)}`,
              immediate: true,
              failureMessage,
            })
          : undefined;
        const snapshotId = snapshot?.message.id;
        let operationId = snapshot?.operationId || "";
        if (request.drainWorkloads) {
          const pods = env.workloads.podsOf(cluster.id);
          const plan = planDrain(pods, request.drainTimeoutSeconds);
          env.clusters.update(cluster.id, { reason: DRAIN_REASON.draining, message: "", updateMs: nowMs });
          operationId = startOperation(env, cluster.id, "drain", {
            failureMessage: plan.timedOut ? drainTimeoutMessage(pods, plan, request.drainTimeoutSeconds, snapshotId) : undefined,
            payload: { pods, timeoutSeconds: request.drainTimeoutSeconds, ...(snapshotId ? { snapshotId } : {}) },
            extraSeconds: plan.seconds,
          });
        } else {
          env.clusters.update(cluster.id, { basePhase: Phase.SUSPENDED, reason: "", message: "", updateMs: nowMs });
        }
        emit(WatchEventType.MODIFIED, cluster.id);
        // The reference server answers an operation id for every suspend, with or without a snapshot.
        return { vcluster: messageOf(env, env.clusters.findById(cluster.id)!), snapshot: snapshot?.message, operationId: operationId || newId(env, "op") };
      });
    },

    resumeVCluster(request, ctx) {
      requireName(request.name);
      const { cluster } = loadInPhase(env, request.namespace, request.name, "resume", [Phase.SUSPENDED]);
      const failureMessage = ctx.takeOperationFailure();
      return mutate(env, ({ emit }) => {
        env.clusters.update(cluster.id, { basePhase: Phase.RUNNING, updateMs: env.clock.now() });
        const operationId = startOperation(env, cluster.id, "resume", { failureMessage });
        emit(WatchEventType.MODIFIED, cluster.id);
        return { vcluster: messageOf(env, env.clusters.findById(cluster.id)!), operationId };
      });
    },

    snapshotVCluster(request, ctx) {
      requireName(request.name);
      if (request.retentionHours < 0) throw invalidArgument("retention_hours", request.retentionHours, "must be 0 (kept until deleted) or more");
      const { cluster } = loadInPhase(env, request.namespace, request.name, "snapshot", [Phase.RUNNING]);
      const failureMessage = ctx.takeOperationFailure();
      return mutate(env, ({ emit }) => {
        const nowMs = env.clock.now();
        const created = createSnapshot(env, cluster, {
          name: request.snapshotName || `${cluster.name}-${Math.floor(nowMs / 1000)}`,
          description: request.description,
          labels: request.labels,
          retentionHours: request.retentionHours,
          includeWorkloads: request.includeWorkloads,
          failureMessage,
        });
        emit(WatchEventType.MODIFIED, cluster.id);
        return { snapshot: created.message, operationId: created.operationId };
      });
    },

    getVClusterKubeconfig(request) {
      requireName(request.name);
      const format = KUBECONFIG_FORMATS[request.format];
      if (!format) throw invalidArgument("format", request.format, 'allowed: "default", "exec", "token" (empty means "default")');
      const hours = request.validityHours || TOKEN_VALIDITY_HOURS.default;
      if (hours < 0 || hours > TOKEN_VALIDITY_HOURS.max) {
        throw invalidArgument("validity_hours", request.validityHours, `must be 0 (default ${TOKEN_VALIDITY_HOURS.default}) to ${TOKEN_VALIDITY_HOURS.max}`);
      }
      const { cluster } = loadInPhase(env, request.namespace, request.name, "get the kubeconfig of", [Phase.RUNNING]);
      // With --kubernetes it names the real API server; only the default format's token is one that server accepts.
      const api = env.kubernetes?.access(apiServerKey(cluster.id));
      const endpoint = apiServerEndpoint(cluster.name, cluster.namespace, cluster.spec.ingress, api);
      const kubeconfig = toBase64(renderKubeconfig(cluster.name, cluster.namespace, endpoint, format(cluster), api));
      // Every kubeconfig carries its expiry, validity_hours (24 by default) from now, as the
      // reference server sets it. Its lifetime is real time: the credentials do not run on the
      // simulated clock of operations.
      const expiresAt = timestampFromMs(env.clock.now() + Math.round(hours * 3_600_000));
      return { kubeconfig, apiServerEndpoint: endpoint, expiresAt };
    },
  };
}
