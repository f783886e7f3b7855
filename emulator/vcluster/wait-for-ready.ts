import { create } from "@bufbuild/protobuf";
import {
  type CreateVClusterRequest,
  type CreateVClusterResponse,
  CreateVClusterResponseSchema,
  Phase,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { messageOf, type VclusterEnv } from "./context";
import type { StoredEvent } from "./journal";

/** How long a create with `wait_for_ready` waits when it names no timeout, in seconds of wall time. */
export const DEFAULT_WAIT_SECONDS = 60;

/**
 * Holds a create's answer until the vcluster has left CREATING (RUNNING, or ERROR when the create
 * failed) or `timeout_seconds` of wall time have passed, then answers with the vcluster as it is.
 * The wait is wall time because the caller's own deadline is.
 */
export async function waitForReady(env: VclusterEnv, request: CreateVClusterRequest, reply: CreateVClusterResponse): Promise<CreateVClusterResponse> {
  const id = reply.vcluster?.id ?? "";
  if (!request.waitForReady || reply.vcluster?.status?.phase !== Phase.CREATING) return reply;
  const timeoutMs = (request.timeoutSeconds > 0 ? request.timeoutSeconds : DEFAULT_WAIT_SECONDS) * 1000;
  let listener: ((event: StoredEvent) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    listener = (event) => {
      if (event.vcluster.id === id && event.vcluster.status?.phase !== Phase.CREATING) resolve();
    };
    env.listeners.add(listener);
    timer = setTimeout(resolve, timeoutMs);
  });
  if (listener) env.listeners.delete(listener);
  clearTimeout(timer);
  const current = env.clusters.findById(id);
  return current ? create(CreateVClusterResponseSchema, { vcluster: messageOf(env, current), operationId: reply.operationId }) : reply;
}
