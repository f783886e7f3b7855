import type * as http from "node:http";
import type * as http2 from "node:http2";

/** An HTTP/1.1 or HTTP/2 (compatibility API) request. */
export type HttpRequest = http.IncomingMessage | http2.Http2ServerRequest;

/** The part of an HTTP/1.1 or HTTP/2 response the emulator writes to. */
export interface HttpResponse {
  statusCode: number;
  setHeader(name: string, value: string | number): unknown;
  end(body?: string): unknown;
}

/** Handles a request if it is for this handler, resolving true; false leaves it to the next one. */
export type RouteHandler = (req: HttpRequest, res: HttpResponse, url: URL) => Promise<boolean>;

/** The grpc-gateway default maximum message size, also our request body limit. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Thrown when a request body is larger than the limit. */
export class BodyTooLargeError extends Error {}

/**
 * Reads the whole request body as UTF-8 text.
 * @param maxBytes - the largest body accepted. @default 4 MiB (grpc-gateway's message limit)
 */
export async function readBody(req: HttpRequest, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLargeError(`request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes a JSON response. */
export function sendJson(res: HttpResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** Writes a plain-text response, as Go's `http.Error` does. */
export function sendText(res: HttpResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(`${text}\n`);
}

/** The first value of a request header, if present. */
export function headerValue(req: HttpRequest, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
