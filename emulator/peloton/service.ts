import { randomUUID } from "node:crypto";
import type { StatementSync } from "node:sqlite";
import { create, type DescService, type Message } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { ResourceManager } from "../../proto/gen/peloton/api/v0/respool/respool_pb";
import { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import { ResourcePoolService } from "../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import type { CallContext, CallPipeline } from "../calls";
import { inTransaction } from "../database";
import { PELOTON_API, type PelotonEnv } from "./env";
import type { ServiceHandlers } from "./handler-types";
import { createJobControl } from "./job-control";
import { createJobMutations } from "./job-mutations";
import { createJobReads } from "./job-reads";
import { mustFindJob } from "./job-validation";
import { createPodReads } from "./pod-reads";
import { createRespoolHandlers } from "./respool-handlers";
import { createRespoolV0Handlers } from "./respool-v0-handlers";
import { settle } from "./simulation";
import { assertYarpcCall, readYarpcMetadata } from "./yarpc";
import { requestForAudit } from "../audit";

/** RPC method names of the three services (v0 shares most of v1alpha's), as audited and as faults name them. */
export const PELOTON_OPERATIONS: readonly string[] = [...new Set([...JobService.methods, ...ResourcePoolService.methods, ...ResourceManager.methods].map((m) => m.name))];

type AnyRequest = {
  jobId?: { value: string };
  respoolId?: { value: string };
  id?: { value: string };
  spec?: { name?: string };
  config?: { name?: string };
  path?: { value: string };
  jobName?: string;
};

/** The audit target of a call: the job or pool it names, else the name it creates or looks up. */
function targetOf(request: AnyRequest): string {
  return (
    request.jobId?.value || request.respoolId?.value || request.id?.value || request.spec?.name || request.config?.name || request.path?.value || request.jobName || ""
  );
}

type AnyHandler = (request: Message, ctx: CallContext) => unknown;

const totalChangesQueries = new WeakMap<PelotonEnv["db"], StatementSync>();

/** Rows inserted, updated or deleted on the connection so far (SQLite's `total_changes()`). */
function totalChanges(env: PelotonEnv): number {
  let query = totalChangesQueries.get(env.db);
  if (!query) {
    query = env.db.prepare("SELECT total_changes() AS n");
    totalChangesQueries.set(env.db, query);
  }
  return Number((query.get() as { n: number | bigint }).n);
}

/**
 * Registers one service: every call checks the YARPC metadata, goes through faults and the audit
 * log, advances the simulation to now, runs its handler in one transaction, and settles what the
 * handler started at this instant.
 */
function mount<S extends DescService>(router: ConnectRouter, service: S, handlers: ServiceHandlers<S>, env: PelotonEnv, pipeline: CallPipeline): void {
  const byLocalName = handlers as unknown as Record<string, AnyHandler>;
  const impl: Record<string, unknown> = {};
  for (const method of service.methods) {
    const streaming = method.methodKind === "server_streaming";
    const call = (request: Message, context: HandlerContext) => {
      const requestId = context.requestHeader.get("x-request-id") || randomUUID();
      const body = requestForAudit(method.input, request);
      return pipeline({ api: PELOTON_API, operation: method.name, target: targetOf(request as AnyRequest), requestId, request: body }, (ctx) => {
        const meta = readYarpcMetadata(context.requestHeader);
        assertYarpcCall(meta, service.typeName, method.name, streaming || context.timeoutMs() !== undefined);
        context.responseHeader.set("rpc-service", meta.service);
        settle(env);
        const changesBefore = totalChanges(env);
        const reply = inTransaction(env.db, () => byLocalName[method.localName](request, ctx));
        // A mutation's effects at this instant (pods to start, pods to admit) happen now, not at the
        // next call. A call that wrote nothing (every read) has none: the settle just done stands.
        if (totalChanges(env) !== changesBefore) settle(env);
        return reply;
      });
    };
    impl[method.localName] = streaming
      ? async function* (request: Message, context: HandlerContext) {
          for (const reply of (await call(request, context)) as Record<string, unknown>[]) yield create(method.output, reply);
        }
      : async (request: Message, context: HandlerContext) => create(method.output, (await call(request, context)) as Record<string, unknown>);
  }
  router.service(service, impl as unknown as ServiceImpl<S>);
}

/** Builds the JobService handlers; PatchJob answers empty, as the 2019 job manager does. */
function jobHandlers(env: PelotonEnv): ServiceHandlers<typeof JobService> {
  return {
    ...createJobMutations(env),
    ...createJobControl(env),
    ...createJobReads(env),
    ...createPodReads(env),
    patchJob: () => ({}),
    refreshJob(request) {
      mustFindJob(env, request.jobId?.value ?? "");
      return {};
    },
  };
}

/** Registers Peloton's JobService, ResourcePoolService and the v0 ResourceManager on the shared router. */
export function registerPeloton(router: ConnectRouter, env: PelotonEnv, pipeline: CallPipeline): void {
  const respools = createRespoolHandlers(env);
  mount(router, JobService, jobHandlers(env), env, pipeline);
  mount(router, ResourcePoolService, respools, env, pipeline);
  mount(router, ResourceManager, createRespoolV0Handlers(respools), env, pipeline);
}
