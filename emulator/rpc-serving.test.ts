import * as http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "./testing";

/** What a raw HTTP/2 call saw: response headers, the body's bytes, trailers (empty for trailers-only). */
interface RawReply {
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  trailers: http2.IncomingHttpHeaders;
}

/** One enveloped message (flag 0, 4-byte big-endian length). */
function envelope(message: Uint8Array): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

/**
 * Sends one request over a prior-knowledge HTTP/2 connection. With `halfClose` false the request
 * stream stays open after the body, as YARPC's gRPC transport leaves it.
 */
function rawCall(url: string, path: string, headers: Record<string, string>, body: Buffer, halfClose: boolean): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": path, te: "trailers", "grpc-timeout": "5S", ...headers }, { endStream: false });
    const chunks: Buffer[] = [];
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on("response", (h) => (responseHeaders = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    // The answer is complete when the server ends its side; our side may still be open.
    stream.on("end", () => {
      resolve({ headers: responseHeaders, body: Buffer.concat(chunks), trailers });
      stream.close();
      session.close();
    });
    stream.on("error", reject);
    const timer = setTimeout(() => {
      stream.close();
      reject(new Error(`no answer to ${path} within 3 s`));
    }, 3000);
    stream.on("close", () => clearTimeout(timer));
    if (halfClose) stream.end(body);
    else stream.write(body);
  });
}

/** The gRPC status of a reply: from the trailers, or from the headers of a trailers-only reply. */
function grpcStatus(reply: RawReply): { status: string | undefined; message: string } {
  const source = reply.trailers["grpc-status"] !== undefined ? reply.trailers : reply.headers;
  return { status: source["grpc-status"] as string | undefined, message: decodeURIComponent(String(source["grpc-message"] ?? "")) };
}

const GRPC = { "content-type": "application/grpc" };
const YARPC = { ...GRPC, "rpc-caller": "test", "rpc-service": "peloton-jobmgr", "rpc-encoding": "proto" };
const EMPTY = envelope(new Uint8Array());

afterAll(removeDataDirs);

describe("gRPC served as grpc-go serves it, on every API", () => {
  let t: TestPlane;
  beforeAll(async () => {
    t = await startTestPlane({ timeScale: 0 });
  });
  afterAll(() => t.close());

  it.each([
    ["a unary call", "/cmassh.Cluster/GetVersionInformation", GRPC],
    ["a server-streaming call with YARPC headers", "/peloton.api.v1alpha.job.stateless.svc.JobService/ListJobs", YARPC],
    ["a unary call of another API with YARPC headers", "/vcluster.api.v1.SnapshotService/ListSnapshots", YARPC],
  ])("answers %s whose client never half-closes", async (_what, path, headers) => {
    const reply = await rawCall(t.plane.url, path, headers, EMPTY, false);
    expect(reply.headers[":status"]).toBe(200);
    expect(grpcStatus(reply)).toEqual({ status: "0", message: "" });
    expect(reply.body.length).toBeGreaterThan(0);
  });

  it("still answers a unary call whose client half-closes", async () => {
    const reply = await rawCall(t.plane.url, "/cmassh.Cluster/GetVersionInformation", GRPC, EMPTY, true);
    expect(grpcStatus(reply).status).toBe("0");
  });

  it.each([
    ["an unknown method", "/cmassh.Cluster/Nope", "unknown method Nope for service cmassh.Cluster"],
    ["an unknown method of vcluster", "/vcluster.api.v1.VClusterService/Nope", "unknown method Nope for service vcluster.api.v1.VClusterService"],
    ["an unknown service", "/no.such.Service/Get", "unknown service no.such.Service"],
  ])("answers %s with UNIMPLEMENTED in gRPC framing (trailers-only)", async (_what, path, message) => {
    const reply = await rawCall(t.plane.url, path, GRPC, EMPTY, false);
    expect(reply.headers[":status"]).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/grpc");
    expect(grpcStatus(reply)).toEqual({ status: "12", message });
    expect(reply.body.length).toBe(0);
  });

  it("answers an unknown procedure in the Connect protocol with 404 and code unimplemented", async () => {
    const response = await fetch(`${t.plane.url}/cmassh.Cluster/Nope`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      body: "{}",
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: "unimplemented", message: "unknown method Nope for service cmassh.Cluster" });
  });

  it("leaves requests that are not RPCs to the REST routes", async () => {
    expect(await t.http("GET", "/nowhere")).toMatchObject({ status: 404, body: { error: "no route for GET /nowhere" } });
  });
});
