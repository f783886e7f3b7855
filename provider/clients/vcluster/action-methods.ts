import type { Client } from "@connectrpc/connect";
import type { VClusterService } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { CallOptions, Caller } from "../shared/grpc-caller";
import { onVCluster } from "./describe";
import { decodeKubeconfig, fromSnapshot, fromVCluster, isoTime } from "./mapping";
import type {
  KubeconfigInput,
  KubeconfigResult,
  RestoreVClusterInput,
  ScaleVClusterInput,
  SnapshotVClusterInput,
  SuspendResult,
  SuspendVClusterInput,
  VClusterOperation,
  VClusterRef,
} from "./requests";
import type { SnapshotState } from "./types";

/**
 * Calls that move a vcluster between phases. None is retried: a lost reply's retry would meet the
 * phase the first attempt started (FAILED_PRECONDITION), so callers read the state and decide.
 */
export interface ActionMethods {
  /** ScaleVCluster: allowed while RUNNING. */
  scaleVCluster(input: ScaleVClusterInput, options?: CallOptions): Promise<VClusterOperation>;
  /** SuspendVCluster: allowed while RUNNING; optionally takes a snapshot first. */
  suspendVCluster(input: SuspendVClusterInput, options?: CallOptions): Promise<SuspendResult>;
  /** ResumeVCluster: allowed while SUSPENDED. */
  resumeVCluster(input: VClusterRef & { reconcileWorkloads?: boolean }, options?: CallOptions): Promise<VClusterOperation>;
  /** SnapshotVCluster: allowed while RUNNING. */
  snapshotVCluster(input: SnapshotVClusterInput, options?: CallOptions): Promise<{ snapshot: SnapshotState; operationId: string }>;
  /** RestoreVCluster: in place, or into a new vcluster with `createNew`. */
  restoreVCluster(input: RestoreVClusterInput, options?: CallOptions): Promise<VClusterOperation>;
  /** GetVClusterKubeconfig: allowed while RUNNING; a read, so retried. */
  getVClusterKubeconfig(input: KubeconfigInput, options?: CallOptions): Promise<KubeconfigResult>;
}

/** The phase-changing methods and the kubeconfig read. */
export function actionMethods(rpc: Client<typeof VClusterService>, { once, retried }: Caller): ActionMethods {
  return {
    scaleVCluster: (input, o) =>
      once(onVCluster("ScaleVCluster", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.scaleVCluster(input, c);
        return { vcluster: fromVCluster(reply.vcluster), operationId: reply.operationId };
      }),
    suspendVCluster: (input, o) =>
      once(onVCluster("SuspendVCluster", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.suspendVCluster(input, c);
        const snapshot = reply.snapshot ? fromSnapshot(reply.snapshot) : undefined;
        return { vcluster: fromVCluster(reply.vcluster), operationId: reply.operationId, ...(snapshot ? { snapshot } : {}) };
      }),
    resumeVCluster: (input, o) =>
      once(onVCluster("ResumeVCluster", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.resumeVCluster(input, c);
        return { vcluster: fromVCluster(reply.vcluster), operationId: reply.operationId };
      }),
    snapshotVCluster: (input, o) =>
      once(onVCluster("SnapshotVCluster", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.snapshotVCluster(input, c);
        return { snapshot: fromSnapshot(reply.snapshot), operationId: reply.operationId };
      }),
    restoreVCluster: (input, o) =>
      once(`${onVCluster("RestoreVCluster", input.namespace, input.name)} from snapshot ${JSON.stringify(input.snapshotId)}`, o, async (c) => {
        const reply = await rpc.restoreVCluster(input, c);
        return { vcluster: fromVCluster(reply.vcluster), operationId: reply.operationId };
      }),
    getVClusterKubeconfig: (input, o) =>
      retried(onVCluster("GetVClusterKubeconfig", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.getVClusterKubeconfig(input, c);
        return { kubeconfig: decodeKubeconfig(reply.kubeconfig), apiServerEndpoint: reply.apiServerEndpoint, expiresAt: isoTime(reply.expiresAt) };
      }),
  };
}
