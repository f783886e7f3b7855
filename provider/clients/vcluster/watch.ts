import { randomUUID } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import type { VClusterService } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { ClusterformError } from "../../core/errors";
import { eventTypeName, fromVCluster } from "./mapping";
import type { WatchInput } from "./requests";
import type { WatchEvent } from "./types";

function describeWatch(input: WatchInput): string {
  const scope = `${input.namespace || "*"}/${input.name || "*"}`;
  return `WatchVCluster ${JSON.stringify(scope)}${input.resourceVersion ? ` from resource version ${input.resourceVersion}` : ""}`;
}

/**
 * Streams WatchVCluster events. Aborting `input.signal` ends the iteration quietly; anything else
 * that ends the stream (an error, the server going away, even a clean end the server never sends
 * on its own) is thrown as one ClusterformError, Unavailable for a lost connection, so callers can
 * resume from the last event's `resourceVersion` or fall back to polling.
 */
export async function* watchVCluster(rpc: Client<typeof VClusterService>, input: WatchInput, requestIdPrefix: string): AsyncGenerator<WatchEvent> {
  const operation = describeWatch(input);
  const { signal, ...request } = input;
  const options = { signal, headers: { "x-request-id": `${requestIdPrefix}-${randomUUID()}` } };
  try {
    for await (const reply of rpc.watchVCluster(request, options)) {
      yield { type: eventTypeName(reply.type), vcluster: fromVCluster(reply.vcluster) };
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw ClusterformError.from(err, operation);
  }
  if (signal?.aborted) return;
  throw new ClusterformError({ code: "Unavailable", platformCode: "STREAM_ENDED", operation, platformMessage: "the server ended the watch stream" });
}
