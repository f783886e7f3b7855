import { randomUUID } from "node:crypto";
import { create, type DescMethodUnary, type Message } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  type CreateVClusterRequest,
  type CreateVClusterResponse,
  SnapshotService,
  VClusterService,
  type WatchVClusterRequest,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { CallContext, CallPipeline } from "../calls";
import { createActionHandlers } from "./action-handlers";
import { createClusterHandlers, DEFAULT_NAMESPACE } from "./cluster-handlers";
import { keyOf, type VclusterEnv } from "./context";
import { createRestoreHandler, createSnapshotHandlers } from "./snapshot-handlers";
import { waitForReady } from "./wait-for-ready";
import { type OpenWatch, startWatch, streamWatch } from "./watch";
import { requestForAudit } from "../audit";

/** The API name vcluster calls are audited and matched under. */
export const VCLUSTER_API = "vcluster";

/** RPC method names of both services, as audited and as faults name them. */
export const VCLUSTER_OPERATIONS: readonly string[] = [...VClusterService.methods, ...SnapshotService.methods].map((m) => m.name);

type AnyRequest = Record<string, string>;

/** How the audit target of each RPC is read from its request; by default `namespace/name`. */
const TARGET_OF: Readonly<Record<string, (r: AnyRequest) => string>> = {
  CreateVCluster: (r) => keyOf(r.namespace || DEFAULT_NAMESPACE, r.name),
  GetVCluster: (r) => (r.name ? keyOf(r.namespace, r.name) : r.id),
  ListVClusters: (r) => r.namespace,
  ListSnapshots: (r) => (r.vclusterName ? keyOf(r.namespace, r.vclusterName) : r.namespace),
  GetSnapshot: (r) => r.id || keyOf(r.namespace, r.name),
  DeleteSnapshot: (r) => r.id,
};

const targetOf = (method: string, request: unknown): string =>
  (TARGET_OF[method] ?? ((r: AnyRequest) => keyOf(r.namespace, r.name)))(request as AnyRequest);

type UnaryImpl = (req: Message, context: HandlerContext) => Promise<Message>;

/** The vcluster services, ready to mount. */
export interface VclusterService {
  register(router: ConnectRouter): void;
  /** Ends every open watch; called when the server closes. */
  closeWatches(): void;
}

/** Creates both services over the given state and call pipeline. */
export function createVclusterService(env: VclusterEnv, pipeline: CallPipeline): VclusterService {
  const handlers = {
    ...createClusterHandlers(env),
    ...createActionHandlers(env),
    ...createRestoreHandler(env),
    ...createSnapshotHandlers(env),
  } as unknown as Record<string, (req: Message, ctx: CallContext) => object>;
  const watches = new Set<OpenWatch>();
  const requestIdOf = (context: HandlerContext) => context.requestHeader.get("x-request-id") || randomUUID();

  const unary = (method: DescMethodUnary): UnaryImpl => async (request, context) => {
    const info = { api: VCLUSTER_API, operation: method.name, target: targetOf(method.name, request), requestId: requestIdOf(context), request: requestForAudit(method.input, request) };
    const reply = await pipeline(info, (ctx) => handlers[method.localName](request, ctx));
    const message = create(method.output, reply as never);
    return method.name === "CreateVCluster" ? waitForReady(env, request as CreateVClusterRequest, message as CreateVClusterResponse) : message;
  };

  const impl = (service: typeof VClusterService | typeof SnapshotService): Record<string, unknown> =>
    Object.fromEntries(service.methods.filter((m) => m.methodKind === "unary").map((m) => [m.localName, unary(m as DescMethodUnary)]));

  const watchVCluster = (request: WatchVClusterRequest, context: HandlerContext) =>
    streamWatch({
      env,
      request,
      signal: context.signal,
      watches,
      api: VCLUSTER_API,
      open: (subscribe) => {
        const info = { api: VCLUSTER_API, operation: "WatchVCluster", target: keyOf(request.namespace, request.name), requestId: requestIdOf(context) };
        return pipeline(info, () => {
          const start = startWatch(env, request);
          subscribe(start.current);
          return start;
        });
      },
    });

  return {
    register(router) {
      router.service(VClusterService, { ...impl(VClusterService), watchVCluster } as unknown as ServiceImpl<typeof VClusterService>);
      router.service(SnapshotService, impl(SnapshotService) as unknown as ServiceImpl<typeof SnapshotService>);
    },
    closeWatches() {
      for (const watch of watches) watch.close();
    },
  };
}
