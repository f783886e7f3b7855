import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { SnapshotService, VClusterService } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { type CallerOptions, createCaller } from "../shared/grpc-caller";
import { type ActionMethods, actionMethods } from "./action-methods";
import { type ClusterMethods, clusterMethods } from "./cluster-methods";
import type { WatchInput } from "./requests";
import { type SnapshotMethods, snapshotMethods } from "./snapshot-methods";
import type { WatchEvent } from "./types";
import { watchVCluster } from "./watch";

export type { CallOptions } from "../shared/grpc-caller";

/** Options of {@link createVclusterClient}. */
export interface VclusterClientOptions extends CallerOptions {
  /** The vcluster gRPC endpoint, e.g. `http://127.0.0.1:9020` (h2c) or an https:// URL. */
  endpoint: string;
}

/**
 * `vcluster.api.v1` VClusterService and SnapshotService with plain objects in and out. Errors are
 * ClusterformErrors naming the call and the vcluster (`namespace/name`), never a kubeconfig.
 */
export interface VclusterClient extends ClusterMethods, ActionMethods, SnapshotMethods {
  /** The endpoint this client talks to. */
  readonly endpoint: string;
  /** WatchVCluster: yields events until aborted; a broken stream is thrown as a ClusterformError. */
  watchVCluster(input?: WatchInput): AsyncGenerator<WatchEvent>;
  /** Closes the HTTP/2 connection (ending open watches); later calls open a new one. */
  close(): void;
}

/**
 * Creates a vcluster client over gRPC. Connect's gRPC transport speaks HTTP/2: h2c with prior
 * knowledge for http:// endpoints, TLS with ALPN for https://.
 */
export function createVclusterClient(options: VclusterClientOptions): VclusterClient {
  const sessionManager = new Http2SessionManager(options.endpoint);
  const transport = createGrpcTransport({ baseUrl: options.endpoint, sessionManager });
  const vclusters = createClient(VClusterService, transport);
  const snapshots = createClient(SnapshotService, transport);
  const caller = createCaller(options);
  const prefix = options.requestIdPrefix ?? "clusterform";
  return {
    endpoint: options.endpoint,
    ...clusterMethods(vclusters, caller, prefix),
    ...actionMethods(vclusters, caller),
    ...snapshotMethods(snapshots, caller),
    watchVCluster: (input = {}) => watchVCluster(vclusters, input, prefix),
    close: () => sessionManager.abort(),
  };
}
