import type * as http from "node:http";
import type * as http2 from "node:http2";
import type { Readable } from "node:stream";
import { Code, type ConnectRouter, ConnectError, createConnectRouter } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";

/** A Node request and response of either protocol version, as the shared port hands them over. */
type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;

/** Options of {@link createRpcHandler}. */
export interface RpcHandlerOptions {
  /** Registers every gRPC service the plane serves. */
  routes(router: ConnectRouter): void;
  /** Serves every request that is not an RPC (REST, admin). */
  fallback(req: NodeRequest, res: NodeResponse): void;
}

/** Content types whose body is a sequence of length-prefixed envelopes (gRPC, gRPC-web, Connect streaming). */
const ENVELOPED = /^application\/(grpc|grpc-web|grpc-web\+[^;]*|grpc\+[^;]*|connect\+[^;]*)(;|$)/i;
/** Content types of gRPC and gRPC-web, which carry their status in `grpc-status`. */
const GRPC = /^application\/grpc(-web)?([+;]|$)/i;
/** Content types of the Connect protocol's streaming calls. */
const CONNECT_STREAM = /^application\/connect\+/i;
/** The length of an envelope's prefix: one flag byte, then a 4-byte big-endian length. */
const PREFIX = 5;

/**
 * Yields the first envelope of a request body as soon as it is complete, without waiting for the
 * end of the request stream, and discards anything after it. A gRPC server reads one message for a
 * unary or server-streaming call and answers; clients that never half-close (YARPC's gRPC
 * transport opens every call as a stream) depend on that. The rest of the body is still read, so
 * HTTP/2 flow control never stalls the connection.
 */
function firstEnvelope(body: Readable): AsyncIterable<Uint8Array> {
  const first = new Promise<Buffer>((resolve, reject) => {
    let head: Buffer = Buffer.alloc(0);
    let settled = false;
    const settle = (bytes: Buffer): void => {
      if (settled) return;
      settled = true;
      resolve(bytes);
    };
    body.on("data", (chunk: Buffer) => {
      if (settled) return;
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (head.length < PREFIX) return;
      const length = PREFIX + head.readUInt32BE(1);
      if (head.length >= length) settle(head.subarray(0, length));
    });
    body.once("end", () => settle(head));
    body.once("error", (error) => {
      if (!settled) reject(error);
      settled = true;
    });
  });
  return {
    async *[Symbol.asyncIterator]() {
      const bytes = await first;
      if (bytes.length > 0) yield bytes;
    },
  };
}

/** How a request for a procedure the plane does not serve is answered, per protocol. */
function answerUnimplemented(req: NodeRequest, res: NodeResponse, message: string): void {
  const contentType = String(req.headers["content-type"] ?? "");
  if (GRPC.test(contentType)) {
    // Trailers-only, as grpc-go answers an unknown service or method: one HEADERS frame that ends the stream.
    const headers = { "content-type": contentType.split(";")[0], "grpc-status": String(Code.Unimplemented), "grpc-message": encodeURIComponent(message) };
    if ("stream" in req) {
      req.stream.respond({ ":status": 200, ...headers }, { endStream: true });
      req.resume();
      return;
    }
    (res as http.ServerResponse).writeHead(200, headers);
    res.end();
    return;
  }
  const error = { code: "unimplemented", message };
  if (CONNECT_STREAM.test(contentType)) {
    // A Connect stream ends with an end-of-stream envelope (flag 2) carrying the error.
    const payload = Buffer.from(JSON.stringify({ error }));
    const prefix = Buffer.alloc(PREFIX);
    prefix.writeUInt8(2, 0);
    prefix.writeUInt32BE(payload.length, 1);
    (res as http.ServerResponse).writeHead(200, { "content-type": contentType.split(";")[0] });
    res.end(Buffer.concat([prefix, payload]));
    return;
  }
  // A Connect unary call: HTTP 404 (the status Connect maps `unimplemented` to) with the error as JSON.
  (res as http.ServerResponse).writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify(error));
}

/** True when a request is an RPC of some protocol the plane speaks, judged from its headers. */
function isRpc(req: NodeRequest): boolean {
  const contentType = String(req.headers["content-type"] ?? "");
  return req.method === "POST" && (ENVELOPED.test(contentType) || req.headers["connect-protocol-version"] !== undefined);
}

/**
 * The request handler of every gRPC API of the plane, one mechanism for all: Connect-ES serves
 * the gRPC, gRPC-web and Connect protocols; a unary or server-streaming call is answered from
 * its first message whether or not the client half-closes; a procedure the plane does not serve
 * gets UNIMPLEMENTED in the caller's protocol (gRPC framing for gRPC) with grpc-go's wording;
 * anything else goes to `fallback`.
 */
export function createRpcHandler(options: RpcHandlerOptions): (req: NodeRequest, res: NodeResponse) => void {
  const router = createConnectRouter({ acceptCompression: [compressionGzip, compressionBrotli] });
  options.routes(router);
  const byPath = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, h]));
  const services = new Set(router.handlers.map((h) => h.service.typeName));
  return (req, res) => {
    const path = (req.url ?? "").split("?", 1)[0];
    const handler = byPath.get(path);
    if (!handler) {
      if (!isRpc(req)) return options.fallback(req, res);
      const [, service = "", method = ""] = /^\/([^/]*)\/([^/]*)$/.exec(path) ?? [];
      const message = services.has(service) ? `unknown method ${method} for service ${service}` : `unknown service ${service || path}`;
      return answerUnimplemented(req, res, message);
    }
    const request = universalRequestFromNodeRequest(req as never, res as never, undefined, undefined);
    const kind = handler.method.methodKind;
    if ((kind === "unary" || kind === "server_streaming") && ENVELOPED.test(String(req.headers["content-type"] ?? ""))) {
      request.body = firstEnvelope(req);
    }
    handler(request)
      .then((response) => universalResponseToNodeResponse(response, res as never))
      .catch((reason: unknown) => {
        // A client that went away (or a connection a reset fault dropped) has nobody to answer.
        if (ConnectError.from(reason).code === Code.Aborted || res.destroyed) return;
        console.error(`handler for rpc ${handler.method.name} of ${handler.service.typeName} failed`, reason);
      });
  };
}
