import { clone } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Phase, VClusterSpecSchema, WatchEventType } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { loadInPhase, messageOf, mutate, newId, requireName, startOperation, type VclusterEnv } from "./context";
import type { VclusterHandlers } from "./cluster-handlers";
import { apiServerEndpoint, generateToken, type KubeconfigUser, renderKubeconfig, toBase64 } from "./kubeconfig";
import { createSnapshot } from "./snapshot-actions";
import { invalidArgument } from "./validation";

/** A token kubeconfig's lifetime when the request asks for none, and the longest allowed. */
export const TOKEN_VALIDITY_HOURS = { default: 24, max: 8760 } as const;

/** Kubeconfig formats: how the user authenticates, and whether the document expires. */
const KUBECONFIG_FORMATS: Readonly<Record<string, (c: { name: string; namespace: string; token: string }) => KubeconfigUser>> = {
  "": (c) => ({ kind: "token", token: c.token }),
  default: (c) => ({ kind: "token", token: c.token }),
  exec: (c) => ({ kind: "exec", name: c.name, namespace: c.namespace }),
  token: () => ({ kind: "token", token: generateToken() }),
};

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
      const { cluster } = loadInPhase(env, request.namespace, request.name, "scale", [Phase.RUNNING]);
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

    // Synchronous, as in the reference server: there is no "suspending" phase to pass through.
    suspendVCluster(request, ctx) {
      requireName(request.name);
      const { cluster } = loadInPhase(env, request.namespace, request.name, "suspend", [Phase.RUNNING]);
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
        env.clusters.update(cluster.id, { basePhase: Phase.SUSPENDED, updateMs: nowMs });
        emit(WatchEventType.MODIFIED, cluster.id);
        // The reference server answers an operation id for every suspend, with or without a snapshot.
        const operationId = snapshot?.operationId || newId(env, "op");
        return { vcluster: messageOf(env, env.clusters.findById(cluster.id)!), snapshot: snapshot?.message, operationId };
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
      const endpoint = apiServerEndpoint(cluster.name, cluster.namespace, cluster.spec.ingress);
      const kubeconfig = toBase64(renderKubeconfig(cluster.name, cluster.namespace, endpoint, format(cluster)));
      // Every kubeconfig carries its expiry, validity_hours (24 by default) from now, as the
      // reference server sets it. Its lifetime is real time: the credentials do not run on the
      // simulated clock of operations.
      const expiresAt = timestampFromMs(env.clock.now() + Math.round(hours * 3_600_000));
      return { kubeconfig, apiServerEndpoint: endpoint, expiresAt };
    },
  };
}
