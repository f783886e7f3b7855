import { randomUUID } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import type { VClusterService } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { ClusterformError } from "../../core/errors";
import type { CallOptions, Caller, Rpc } from "../shared/grpc-caller";
import { onVCluster } from "./describe";
import { fromVCluster, isoTime, PHASE_VALUES, toWireSpec } from "./mapping";
import { wholeSpec } from "./whole-spec";
import type {
  CreateVClusterInput,
  CreateVClusterResult,
  DeleteVClusterInput,
  DeleteVClusterResult,
  GetVClusterInput,
  ListVClustersFilter,
  Page,
  PageRequest,
  UpdateVClusterInput,
} from "./requests";
import type { VClusterState } from "./types";

type Rpcs = Client<typeof VClusterService>;

/** Create, read, list, update and delete. */
export interface ClusterMethods {
  /**
   * CreateVCluster. Always sends a request id, so the server answers a repeat with its first
   * answer: that makes the call idempotent, and transient failures are retried with the same id.
   */
  createVCluster(input: CreateVClusterInput, options?: CallOptions): Promise<CreateVClusterResult>;
  /** GetVCluster. Throws NotFound when the vcluster is gone. */
  getVCluster(input: GetVClusterInput, options?: CallOptions): Promise<VClusterState>;
  /** ListVClusters: one page. */
  listVClusters(filter?: ListVClustersFilter & PageRequest, options?: CallOptions): Promise<Page<VClusterState>>;
  /** Every page of ListVClusters, in order. */
  listAllVClusters(filter?: ListVClustersFilter, options?: CallOptions): Promise<VClusterState[]>;
  /** UpdateVCluster: set-style, so retried. */
  updateVCluster(input: UpdateVClusterInput, options?: CallOptions): Promise<VClusterState>;
  /** DeleteVCluster. A retry that finds the vcluster gone or already deleting counts as success. */
  deleteVCluster(input: DeleteVClusterInput, options?: CallOptions): Promise<DeleteVClusterResult>;
}

/**
 * A delete whose reply was lost may have landed; its retry then meets NOT_FOUND or, while the
 * deletion runs, FAILED_PRECONDITION. A read tells the second case from a delete refused for its phase.
 */
function deleteLandedOnRetry(rpc: Rpcs, input: DeleteVClusterInput, call: Rpc<DeleteVClusterResult>): Rpc<DeleteVClusterResult> {
  const landed: DeleteVClusterResult = { operationId: "", deleteTime: "", landedEarlier: true };
  return async (c, n) => {
    try {
      return await call(c, n);
    } catch (err) {
      if (n === 0) throw err;
      const code = ClusterformError.from(err, "").code;
      if (code === "NotFound") return landed;
      if (code !== "FailedPrecondition") throw err;
      const current = await rpc.getVCluster({ name: input.name, namespace: input.namespace }, c).catch((e: unknown) => e);
      if (current instanceof Error) throw ClusterformError.from(current, "").code === "NotFound" ? landed : err;
      if (fromVCluster((current as Awaited<ReturnType<Rpcs["getVCluster"]>>).vcluster).phase === "DELETING") return landed;
      throw err;
    }
  };
}

/** The cluster-level methods over a Connect client and the shared caller. */
export function clusterMethods(rpc: Rpcs, { retried }: Caller, requestIdPrefix: string): ClusterMethods {
  const list: ClusterMethods["listVClusters"] = (filter = {}, o) =>
    retried(`ListVClusters in namespace ${JSON.stringify(filter.namespace ?? "")}`, o, async (c) => {
      const reply = await rpc.listVClusters({ ...filter, phases: (filter.phases ?? []).map((p) => PHASE_VALUES[p]) }, c);
      return { items: reply.vclusters.map(fromVCluster), nextPageToken: reply.nextPageToken, totalCount: reply.totalCount };
    });
  return {
    createVCluster: (input, o) => {
      const requestId = input.requestId || `${requestIdPrefix}-${randomUUID()}`;
      return retried(onVCluster("CreateVCluster", input.namespace, input.name), o, async (c) => {
        const reply = await rpc.createVCluster({ ...input, spec: toWireSpec(input.spec), requestId }, c);
        return { vcluster: fromVCluster(reply.vcluster), operationId: reply.operationId, requestId };
      });
    },
    getVCluster: (input, o) =>
      retried(onVCluster("GetVCluster", input.namespace, input.name || input.id), o, async (c) =>
        fromVCluster((await rpc.getVCluster(input, c)).vcluster),
      ),
    listVClusters: list,
    async listAllVClusters(filter = {}, o) {
      const all: VClusterState[] = [];
      let pageToken = "";
      do {
        const page = await list({ ...filter, pageSize: 100, pageToken }, o);
        all.push(...page.items);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return all;
    },
    updateVCluster: (input, o) =>
      retried(onVCluster("UpdateVCluster", input.namespace, input.name), o, async (c) => {
        const { updateMask, spec, ...rest } = input;
        // With a mask naming spec fields, the whole spec travels (see wholeSpec): correct both on a
        // server that honours the mask and on one that ignores it, as the reference server does.
        const masksSpec = (updateMask ?? []).some((p) => p.startsWith("spec."));
        const live = spec && masksSpec ? (await rpc.getVCluster({ name: input.name, namespace: input.namespace }, c)).vcluster?.spec : undefined;
        // A mask naming no spec field sends no spec: a server ignoring the mask would take a spec
        // sent as a whole new one.
        const wire = !spec || (updateMask && !masksSpec) ? undefined : masksSpec ? wholeSpec(live, toWireSpec(spec), updateMask ?? []) : toWireSpec(spec);
        const reply = await rpc.updateVCluster({ ...rest, spec: wire, updateMask: updateMask && { paths: updateMask } }, c);
        return fromVCluster(reply.vcluster);
      }),
    deleteVCluster: (input, o) =>
      retried(
        onVCluster("DeleteVCluster", input.namespace, input.name),
        o,
        deleteLandedOnRetry(rpc, input, async (c) => {
          const reply = await rpc.deleteVCluster(input, c);
          return { operationId: reply.operationId, deleteTime: isoTime(reply.deleteTime), landedEarlier: false };
        }),
      ),
  };
}
