import { randomUUID } from "node:crypto";
import { create, type DescMethodUnary, type Message } from "@bufbuild/protobuf";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { Cluster } from "../../proto/gen/cmassh/api_pb";
import type { CallContext, CallPipeline } from "../calls";
import { createClusterHandlers } from "./cluster-handlers";
import type { CmasshEnv, CmasshHandlers } from "./context";
import { createPoolHandlers } from "./pool-handlers";
import { requestForAudit } from "../audit";

/** The API name cma-ssh calls are audited and matched under. */
export const CMASSH_API = "cmassh";

/** RPC method names of `cmassh.Cluster`, as audited and as faults name them. */
export const CMASSH_OPERATIONS: readonly string[] = Cluster.methods.map((m) => m.name);

type AnyRequest = Record<string, unknown>;

const clusterName = (r: AnyRequest): string => String(r.name ?? "");

/** `cluster/pool` when a call names exactly one pool, else the cluster. */
function poolTarget(cluster: unknown, pools: readonly string[]): string {
  return pools.length === 1 ? `${cluster}/${pools[0]}` : String(cluster);
}

/** How the audit target of each RPC is read from its request; unlisted RPCs have none. */
const TARGET_OF: Readonly<Record<string, (r: AnyRequest) => string>> = {
  CreateCluster: clusterName,
  GetCluster: clusterName,
  DeleteCluster: clusterName,
  GetUpgradeClusterInformation: clusterName,
  UpgradeCluster: clusterName,
  AddNodePool: (r) => poolTarget(r.clusterName, (r.workerNodePools as { name: string }[]).map((p) => p.name)),
  DeleteNodePool: (r) => poolTarget(r.clusterName, r.nodePoolNames as string[]),
  ScaleNodePool: (r) => poolTarget(r.clusterName, (r.nodePools as { name: string }[]).map((p) => p.name)),
};

/** The cma-ssh service as both transports call it. */
export interface CmasshService {
  /** Runs one RPC through faults and the audit log and returns the full reply message. */
  invoke(method: DescMethodUnary, request: Message, requestId: string | null): Promise<Message>;
  /** Registers `cmassh.Cluster` on a Connect router (gRPC, gRPC-Web and Connect protocols). */
  register(router: ConnectRouter): void;
}

/** Creates the cma-ssh service over the given state and call pipeline. */
export function createCmasshService(env: CmasshEnv, pipeline: CallPipeline): CmasshService {
  const handlers: CmasshHandlers = { ...createClusterHandlers(env), ...createPoolHandlers(env) };
  const byLocalName = handlers as unknown as Record<string, (req: Message, ctx: CallContext) => Record<string, unknown>>;

  const invoke: CmasshService["invoke"] = async (method, request, requestId) => {
    const info = {
      api: CMASSH_API,
      operation: method.name,
      target: TARGET_OF[method.name]?.(request as unknown as AnyRequest) ?? "",
      requestId: requestId || randomUUID(),
      request: requestForAudit(method.input, request),
    };
    const reply = await pipeline(info, (ctx) => byLocalName[method.localName](request, ctx));
    return create(method.output, reply);
  };

  const impl: Record<string, (req: Message, context: { requestHeader: Headers }) => Promise<Message>> = {};
  for (const method of Cluster.methods) {
    const unary = method as DescMethodUnary;
    impl[method.localName] = (request, context) => invoke(unary, request, context.requestHeader.get("x-request-id"));
  }
  return {
    invoke,
    register: (router) => router.service(Cluster, impl as unknown as ServiceImpl<typeof Cluster>),
  };
}
