import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type VCluster,
  type WatchVClusterRequest,
  type WatchVClusterResponseSchema,
  WatchEventType,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { keyOf, messageOf, settleDue, type VclusterEnv } from "./context";
import type { StoredEvent } from "./journal";
import { parseLabelSelector } from "./label-selector";
import { invalidArgument } from "./validation";

/** The fault action that breaks open watches: the next event a matching watch would send ends it with UNAVAILABLE. */
export const BREAK_WATCH_ACTION = "break-watch";

type WatchResponse = MessageInitShape<typeof WatchVClusterResponseSchema>;

/** One open watch as the module tracks it, so closing the server can end it. */
export interface OpenWatch {
  /** Ends the stream with UNAVAILABLE. */
  close(): void;
}

/** The events a watch starts with and the version after which live events follow. */
interface WatchStart {
  initial: { type: WatchEventType; vcluster: VCluster }[];
  afterSeq: number;
  /** Every vcluster as it is when the watch opens. */
  current: VCluster[];
}

function parseResourceVersion(raw: string): number | undefined {
  if (raw === "") return undefined;
  if (!/^\d+$/.test(raw)) throw invalidArgument("resource_version", raw, "must be a resource version from a vcluster's annotations or an earlier event (a non-negative integer)");
  return Number(raw);
}

/** Whether a vcluster is one the request watches. */
function matcher(request: WatchVClusterRequest): (v: VCluster) => boolean {
  const selector = parseLabelSelector(request.labelSelector);
  return (v) =>
    (!request.namespace || v.namespace === request.namespace) && (!request.name || v.name === request.name) && selector(v.labels);
}

/**
 * Reads where a watch starts. Without a resource version: ADDED for every matching vcluster as it
 * is now. With one: every stored event after it, so a client resumes without missing a change.
 */
export function startWatch(env: VclusterEnv, request: WatchVClusterRequest): WatchStart {
  const matches = matcher(request);
  const after = parseResourceVersion(request.resourceVersion);
  settleDue(env);
  const current = env.clusters.list().map((c) => messageOf(env, c));
  if (after === undefined) {
    const initial = current.filter(matches).map((vcluster) => ({ type: WatchEventType.ADDED, vcluster }));
    return { initial, afterSeq: env.journal.latestSeq(), current: [] };
  }
  const replay = env.journal.eventsAfter(after);
  return {
    initial: replay.map(({ type, vcluster }) => ({ type, vcluster })),
    afterSeq: Math.max(after, replay.at(-1)?.seq ?? 0),
    current,
  };
}

/** What a live watch needs from the service. */
export interface WatchStream {
  env: VclusterEnv;
  request: WatchVClusterRequest;
  signal: AbortSignal;
  /**
   * Opens the watch inside the call pipeline (faults, audit) and subscribes synchronously, passing
   * the vclusters that exist now (a resumed watch treats them as already shown).
   */
  open(subscribe: (current: readonly VCluster[]) => void): Promise<WatchStart>;
  /** Registered while the stream is open. */
  watches: Set<OpenWatch>;
  api: string;
}

/** Streams a watch: its start, then each matching committed event, until the client goes or the server closes. */
export async function* streamWatch(s: WatchStream): AsyncGenerator<WatchResponse> {
  const queue: StoredEvent[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let matches: (v: VCluster) => boolean = () => false;
  // Ids the client has been shown and not told are gone: one that stops matching gets a DELETED.
  const visible = new Set<string>();
  const present = ({ type, vcluster }: { type: WatchEventType; vcluster: VCluster }): WatchResponse | undefined => {
    if (matches(vcluster)) {
      if (type === WatchEventType.DELETED) visible.delete(vcluster.id);
      else visible.add(vcluster.id);
      return { type, vcluster };
    }
    if (!visible.delete(vcluster.id)) return undefined;
    return { type: WatchEventType.DELETED, vcluster };
  };
  const listener = (event: StoredEvent) => {
    queue.push(event);
    wake?.();
  };
  const handle: OpenWatch = {
    close: () => {
      closed = true;
      wake?.();
    },
  };
  const onAbort = () => wake?.();
  try {
    const start = await s.open((current) => {
      matches = matcher(s.request);
      for (const v of current) if (matches(v)) visible.add(v.id);
      s.env.listeners.add(listener);
    });
    s.watches.add(handle);
    s.signal.addEventListener("abort", onAbort);
    for (const event of start.initial) {
      const shown = present(event);
      if (shown) yield shown;
    }
    const target = keyOf(s.request.namespace, s.request.name);
    while (!s.signal.aborted) {
      if (closed) throw new ConnectError("the vcluster server is shutting down", Code.Unavailable);
      const event = queue.shift();
      if (!event) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const shown = event.seq > start.afterSeq ? present(event) : undefined;
      if (!shown) continue;
      const fault = s.env.faults.take({ api: s.api, operation: "WatchVCluster", target }, BREAK_WATCH_ACTION);
      if (fault) throw new ConnectError(fault.message ?? "watch stream broken", Code.Unavailable);
      yield shown;
    }
  } finally {
    s.env.listeners.delete(listener);
    s.watches.delete(handle);
    s.signal.removeEventListener("abort", onAbort);
  }
}
