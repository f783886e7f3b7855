import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";

/** A reply of the plane's own REST routes, as a seed applier reads it. */
export interface SeedReply {
  status: number;
  body: unknown;
  headers: Headers;
  text: string;
}

/**
 * What a platform's seed applier talks to: the plane's own API, over its own port, so seeded
 * objects pass the same checks and take the same paths as objects a program creates.
 */
export interface SeedClient {
  /** The plane's base URL. */
  baseUrl: string;
  /** A gRPC (h2c) transport to the plane. */
  grpc: Transport;
  /** An HTTP/1.1 request with an optional JSON body. */
  rest(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<SeedReply>;
}

/** Thrown for a seed object the plane refused; names where in the seed file it is. */
export class SeedError extends Error {
  constructor(
    /** e.g. `senlin.clusters[0]` */
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}

/** Creates the client seed appliers use against the plane at `baseUrl`. */
export function createSeedClient(baseUrl: string): SeedClient {
  return {
    baseUrl,
    grpc: createGrpcTransport({ baseUrl, defaultTimeoutMs: 30_000 }),
    async rest(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { "Content-Type": "application/json", "x-request-id": "clusterform-seed", ...headers } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await fetch(`${baseUrl}${path}`, init);
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
  };
}

/** Fails with the plane's own answer unless `reply` has one of the `ok` statuses. */
export function expectStatus(where: string, reply: SeedReply, ...ok: number[]): SeedReply {
  if (!ok.includes(reply.status)) throw new SeedError(where, `the plane refused it: HTTP ${reply.status}: ${reply.text.slice(0, 500)}`);
  return reply;
}
