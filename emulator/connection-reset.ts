import { AsyncLocalStorage } from "node:async_hooks";
import type { HttpRequest } from "./http-json";

/** Drops the connection a call arrived on, without an answer. */
type Reset = () => void;

const current = new AsyncLocalStorage<Reset>();

/**
 * Drops the connection `req` came on the way a crashed proxy or a network fault does: no status,
 * no body. HTTP/1.1 sockets are reset (RST); an HTTP/2 session is destroyed with every stream on
 * it, since a lost TCP connection takes all its streams along.
 */
function resetConnectionOf(req: HttpRequest): void {
  if ("stream" in req) {
    req.stream.session?.destroy();
    return;
  }
  req.socket.resetAndDestroy();
}

/**
 * Runs `handle` (one HTTP request's whole handling, gRPC or REST) with the request's connection
 * registered, so that a "reset" fault matched deep inside the call pipeline can drop it.
 */
export function withResettableConnection<T>(req: HttpRequest, handle: () => T): T {
  return current.run(() => resetConnectionOf(req), handle);
}

/**
 * Drops the connection of the request being handled. Returns false when there is none (a call
 * made outside an HTTP request), in which case nothing happens.
 */
export function resetCurrentConnection(): boolean {
  const reset = current.getStore();
  reset?.();
  return reset !== undefined;
}
