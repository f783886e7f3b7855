import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { create, type DescMessage, type DescService, fromBinary, isMessage, toBinary } from "@bufbuild/protobuf";

/** gRPC status codes this server answers with (google.rpc.Code). */
const UNKNOWN = 2;
const INVALID_ARGUMENT = 3;
const UNIMPLEMENTED = 12;
const INTERNAL = 13;

/** One unary method's implementation: the decoded request in, the response (a message or its init shape) out. */
type UnaryImpl = (request: never, context: never) => unknown;

interface Route {
  input: DescMessage;
  output: DescMessage;
  impl: UnaryImpl;
}

/**
 * The gRPC status a thrown error answers with: its numeric `code` where that is a gRPC status
 * (connect's ConnectError carries one, numbered as gRPC numbers them), else UNKNOWN; its message
 * (a ConnectError's without the "[code]" prefix its `message` adds).
 */
function statusOf(err: unknown): { code: number; message: string } {
  const raw = (err as { code?: unknown } | undefined)?.code;
  const code = typeof raw === "number" && Number.isInteger(raw) && raw >= 1 && raw <= 16 ? raw : UNKNOWN;
  const message = err instanceof Error ? ((err as { rawMessage?: string }).rawMessage ?? err.message) : String(err);
  return { code, message };
}

/**
 * The unary methods of gRPC services, served on node:http2 streams: what go-plugin's client (grpc-go)
 * calls on a Terraform provider. Each call is one length-prefixed message in and one out, then the
 * status in the trailers; streaming methods are not served (UNIMPLEMENTED, as for an unknown
 * method). Compressed messages are refused: this server announces no encoding, so grpc-go sends none.
 *
 * Written here rather than served by connect-node's server adapter (which the plane still uses): the
 * adapter's generality (web Headers, which load undici in every provider process at its first call,
 * an AbortController and a DOMException per call, async iterables) cost about 0.5 ms a call and 25-39
 * ms of CPU per process, and tofu starts the provider three times per plan: a no-change plan of 100
 * resources went from 0.97 to 0.78 s (bench/README.md, section 19).
 * @returns the handler of the server's "stream" event.
 */
export function unaryGrpcHandler(services: readonly { service: DescService; impl: Record<string, unknown> }[]) {
  const routes = new Map<string, Route>();
  for (const { service, impl } of services) {
    for (const method of service.methods) {
      const fn = impl[method.localName];
      if (method.methodKind === "unary" && typeof fn === "function") {
        routes.set(`/${service.typeName}/${method.name}`, { input: method.input, output: method.output, impl: fn.bind(impl) as UnaryImpl });
      }
    }
  }
  return (stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void => {
    const route = routes.get(String(headers[":path"]));
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", () => {
      // A stream the client reset: nothing is left to answer.
    });
    stream.on("end", () => {
      if (!route) return fail(stream, UNIMPLEMENTED, `no unary method ${String(headers[":path"])}`);
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (body.length < 5 || body.length !== 5 + body.readUInt32BE(1)) return fail(stream, INVALID_ARGUMENT, "expected exactly one length-prefixed message");
      if (body[0] !== 0) return fail(stream, UNIMPLEMENTED, "compressed messages are not accepted");
      let request: unknown;
      try {
        request = fromBinary(route.input, body.subarray(5));
      } catch (err) {
        return fail(stream, INTERNAL, `cannot decode ${route.input.typeName}: ${err instanceof Error ? err.message : String(err)}`);
      }
      Promise.resolve()
        .then(() => route.impl(request as never, {} as never))
        // An answer that does not fit the method's message fails the call (UNKNOWN), as a throw does.
        .then((answer) => toBinary(route.output, isMessage(answer, route.output) ? answer : create(route.output, answer as never)))
        .then(
          (message) => respond(stream, message),
          (err: unknown) => {
            const { code, message } = statusOf(err);
            fail(stream, code, message);
          },
        )
        .catch(() => {
          // The stream went away while the answer was written: nothing is left to tell the client.
        });
    });
  };
}

function respond(stream: ServerHttp2Stream, message: Uint8Array): void {
  if (stream.destroyed || stream.closed) return;
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  stream.end(frame);
}

function fail(stream: ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed || stream.closed) return;
  // Trailers-only: the status in the one HEADERS frame, its message percent-encoded as gRPC asks.
  stream.respond({ ":status": 200, "content-type": "application/grpc+proto", "grpc-status": String(code), "grpc-message": encodeURIComponent(message) }, { endStream: true });
}
