import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Cluster } from "../../../proto/gen/cmassh/api_pb";
import { ClusterformError } from "../../core/errors";
import { type CallerOptions, type CallOptions, type Caller, createCaller, goneOnRetry } from "../shared/grpc-caller";
import { fromClusterDetail, fromClusterItem, fromVersionInformation, toCreateClusterMsg, toMachineSpec } from "./mapping";
import type {
  ClusterDetail,
  ClusterSpec,
  ClusterSummary,
  DeleteClusterResult,
  NodePoolSpec,
  PoolScale,
  VersionInformation,
} from "./types";

export type { CallOptions } from "../shared/grpc-caller";

/** Options of {@link createCmasshClient}. */
export interface CmasshClientOptions extends CallerOptions {
  /** The cma-ssh gRPC endpoint, e.g. `http://127.0.0.1:9020` (h2c) or an https:// URL. */
  endpoint: string;
}

/**
 * cma-ssh's `Cluster` service with plain objects in and out. Errors are ClusterformErrors whose
 * operation names the cluster and pools. Reads and set-style calls retry transient errors within
 * the deadline; CreateCluster and AddNodePool do not (the resource layer checks and adopts).
 */
export interface CmasshClient {
  /** The endpoint this client talks to. */
  readonly endpoint: string;
  /** CreateCluster. Not retried. */
  createCluster(spec: ClusterSpec, options?: CallOptions): Promise<ClusterSummary>;
  /** GetCluster. Throws NotFound when the cluster is gone. */
  getCluster(name: string, options?: CallOptions): Promise<ClusterDetail>;
  /** DeleteCluster. NotFound on a retry counts as success. */
  deleteCluster(name: string, options?: CallOptions): Promise<DeleteClusterResult>;
  /** GetClusterList. */
  getClusterList(options?: CallOptions): Promise<ClusterSummary[]>;
  /** GetVersionInformation. */
  getVersionInformation(options?: CallOptions): Promise<VersionInformation>;
  /** AddNodePool. Not retried. */
  addNodePool(clusterName: string, pools: NodePoolSpec[], options?: CallOptions): Promise<void>;
  /** DeleteNodePool. NotFound on a retry counts as success. */
  deleteNodePool(clusterName: string, poolNames: string[], options?: CallOptions): Promise<void>;
  /** ScaleNodePool: sets each pool's machine count. */
  scaleNodePool(clusterName: string, pools: PoolScale[], options?: CallOptions): Promise<void>;
  /** GetUpgradeClusterInformation: the versions the cluster may move to. */
  getUpgradeClusterInformation(name: string, options?: CallOptions): Promise<string[]>;
  /** UpgradeCluster: sets the cluster's Kubernetes version. */
  upgradeCluster(name: string, version: string, options?: CallOptions): Promise<void>;
  /** Closes the HTTP/2 connection; later calls open a new one. */
  close(): void;
}

const q = (s: string) => JSON.stringify(s);

/** Operation descriptions, e.g. `GetCluster cluster "prod"`. */
function onCluster(method: string, name: string): string {
  return `${method} cluster ${q(name)}`;
}

/** Operation descriptions, e.g. `ScaleNodePool pool "gpu" of cluster "prod"`. */
function onPools(method: string, clusterName: string, pools: readonly string[]): string {
  const noun = pools.length === 1 ? "pool" : "pools";
  return `${method} ${noun} ${pools.map(q).join(", ")} of cluster ${q(clusterName)}`;
}

type Rpcs = Client<typeof Cluster>;

/**
 * Reads a failed create as what it was. The real cma-ssh answers INTERNAL for every failure to
 * create a cluster or pool (contracts §1.5): a name Kubernetes refuses, an object that already
 * exists, a lost API server. "Already exists" becomes ALREADY_EXISTS, so callers can tell an
 * interrupted create of their own (to adopt) from a failure; any other INTERNAL says that the
 * platform refused the create and why.
 */
function createFailure(err: unknown): never {
  if (!(err instanceof ClusterformError) || err.code !== "Internal") throw err;
  const exists = /already exists/i.test(err.platformMessage);
  throw new ClusterformError({
    code: exists ? "AlreadyExists" : "Internal",
    platformCode: err.platformCode,
    operation: err.operation,
    platformMessage: exists
      ? err.platformMessage
      : `cma-ssh refused the create: ${err.platformMessage} (it reports every create failure, invalid input included, as INTERNAL)`,
    cause: err,
  });
}
type ClusterMethods = Omit<CmasshClient, "endpoint" | "close" | PoolMethodName>;
type PoolMethodName = "addNodePool" | "deleteNodePool" | "scaleNodePool";

function clusterMethods(rpc: Rpcs, { once, retried }: Caller): ClusterMethods {
  return {
    createCluster: (spec, o) =>
      once(onCluster("CreateCluster", spec.name), o, async (c) =>
        fromClusterItem((await rpc.createCluster(toCreateClusterMsg(spec), c)).cluster),
      ).catch(createFailure),
    getCluster: (name, o) =>
      retried(onCluster("GetCluster", name), o, async (c) => fromClusterDetail((await rpc.getCluster({ name }, c)).cluster)),
    deleteCluster: (name, o) =>
      retried(
        onCluster("DeleteCluster", name),
        o,
        goneOnRetry<DeleteClusterResult>(
          async (c) => ({ status: (await rpc.deleteCluster({ name }, c)).status, notFoundOnRetry: false }),
          { status: "", notFoundOnRetry: true },
        ),
      ),
    getClusterList: (o) =>
      retried("GetClusterList", o, async (c) => (await rpc.getClusterList({}, c)).clusters.map(fromClusterItem)),
    getVersionInformation: (o) =>
      retried("GetVersionInformation", o, async (c) =>
        fromVersionInformation((await rpc.getVersionInformation({}, c)).versionInformation),
      ),
    getUpgradeClusterInformation: (name, o) =>
      retried(onCluster("GetUpgradeClusterInformation", name), o, async (c) => [
        ...(await rpc.getUpgradeClusterInformation({ name }, c)).versions,
      ]),
    upgradeCluster: (name, version, o) =>
      retried(`${onCluster("UpgradeCluster", name)} to ${q(version)}`, o, async (c) => {
        await rpc.upgradeCluster({ name, version }, c);
      }),
  };
}

function poolMethods(rpc: Rpcs, { once, retried }: Caller): Pick<CmasshClient, PoolMethodName> {
  return {
    addNodePool: (clusterName, pools, o) =>
      once(onPools("AddNodePool", clusterName, pools.map((p) => p.name)), o, async (c) => {
        await rpc.addNodePool({ clusterName, workerNodePools: pools.map(toMachineSpec) }, c);
      }).catch(createFailure),
    deleteNodePool: (clusterName, poolNames, o) =>
      retried(
        onPools("DeleteNodePool", clusterName, poolNames),
        o,
        goneOnRetry(async (c) => {
          await rpc.deleteNodePool({ clusterName, nodePoolNames: poolNames }, c);
        }, undefined),
      ),
    scaleNodePool: (clusterName, pools, o) =>
      retried(onPools("ScaleNodePool", clusterName, pools.map((p) => p.name)), o, async (c) => {
        await rpc.scaleNodePool({ clusterName, nodePools: pools.map((p) => ({ name: p.name, count: p.count })) }, c);
      }),
  };
}

/**
 * Creates a cma-ssh client over gRPC. Connect's gRPC transport always speaks HTTP/2: h2c with
 * prior knowledge for http:// endpoints, TLS with ALPN for https://.
 */
export function createCmasshClient(options: CmasshClientOptions): CmasshClient {
  const sessionManager = new Http2SessionManager(options.endpoint);
  const rpc = createClient(Cluster, createGrpcTransport({ baseUrl: options.endpoint, sessionManager }));
  const caller = createCaller(options);
  return {
    endpoint: options.endpoint,
    ...clusterMethods(rpc, caller),
    ...poolMethods(rpc, caller),
    close: () => sessionManager.abort(),
  };
}
