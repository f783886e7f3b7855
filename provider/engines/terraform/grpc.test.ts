import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRPCController } from "../../../proto/gen/goplugin/grpc_controller_pb";
import { GetMetadata_ResponseSchema, Provider } from "../../../proto/gen/tfplugin6/tfplugin6_pb";
import { unaryGrpcHandler } from "./grpc";

/**
 * The provider's gRPC server (grpc.ts) against a real gRPC client (connect-node's gRPC transport,
 * over HTTP/2 without TLS): what tofu's grpc-go client relies on, call by call.
 */
describe("the OpenTofu provider's unary gRPC server", () => {
  let server: http2.Http2Server;
  let base: string;
  let shutdowns = 0;

  beforeAll(async () => {
    server = http2.createServer();
    server.on(
      "stream",
      unaryGrpcHandler([
        {
          service: Provider,
          impl: {
            // An answer as a message instance (the provider's service answers init shapes, below).
            getMetadata: () => create(GetMetadata_ResponseSchema, { resources: [{ typeName: "clusterform_a" }, { typeName: "clusterform_b" }] }),
            // An answer far larger than HTTP/2's initial flow-control window (64 KiB).
            getProviderSchema: () => ({ provider: { block: { description: "d".repeat(300_000) } } }),
            // The request's size comes back, in an init shape, after a wait.
            validateResourceConfig: async (req: { typeName: string; config?: { msgpack: Uint8Array } }) => {
              await new Promise((resolve) => setTimeout(resolve, 1));
              return { diagnostics: [{ severity: 2, summary: `${req.typeName}:${req.config?.msgpack.length ?? 0}` }] };
            },
            readResource: () => {
              throw new Error("boom\nline two: ü");
            },
            planResourceChange: () => {
              throw new ConnectError("not now", Code.FailedPrecondition);
            },
            importResourceState: () => {
              throw Object.assign(new Error("an HTTP answer"), { code: 404 });
            },
            // An answer that is not the method's message: a field of the wrong type.
            moveResourceState: () => ({ targetState: "not a DynamicValue" }),
          },
        },
        {
          service: GRPCController,
          impl: {
            shutdown: () => {
              shutdowns += 1;
              return {};
            },
          },
        },
      ]),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const provider = () => createClient(Provider, createGrpcTransport({ baseUrl: base }));

  it("answers a unary call with the implementation's answer", async () => {
    const answer = await provider().getMetadata({});
    expect(answer.resources.map((r) => r.typeName)).toEqual(["clusterform_a", "clusterform_b"]);
    expect(await createClient(GRPCController, createGrpcTransport({ baseUrl: base })).shutdown({})).toBeDefined();
    expect(shutdowns).toBe(1);
  });

  it("reads a request spread over many DATA frames and writes an answer larger than the flow-control window", async () => {
    const config = new Uint8Array(200_000).fill(7);
    const checked = await provider().validateResourceConfig({ typeName: "clusterform_a", config: { msgpack: config } });
    expect(checked.diagnostics.map((d) => d.summary)).toEqual(["clusterform_a:200000"]);
    const schema = await provider().getProviderSchema({});
    expect(schema.provider?.block?.description).toHaveLength(300_000);
  });

  it("answers calls in flight at once, each with its own answer", async () => {
    const client = provider();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => client.validateResourceConfig({ typeName: `t${i}`, config: { msgpack: new Uint8Array(i) } })));
    expect(answers.map((a) => a.diagnostics[0].summary)).toEqual(Array.from({ length: 25 }, (_, i) => `t${i}:${i}`));
  });

  it("answers a method with no implementation UNIMPLEMENTED, naming it", async () => {
    const err = await provider().upgradeResourceState({}).catch((e: unknown) => ConnectError.from(e));
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unimplemented);
    expect((err as ConnectError).rawMessage).toContain("/tfplugin6.Provider/UpgradeResourceState");
  });

  it("answers a thrown error UNKNOWN with its message (newlines and non-ASCII kept), a thrown gRPC status with its own code, and a non-gRPC code as UNKNOWN", async () => {
    const failed = await provider().readResource({}).catch((e: unknown) => ConnectError.from(e));
    expect([(failed as ConnectError).code, (failed as ConnectError).rawMessage]).toEqual([Code.Unknown, "boom\nline two: ü"]);
    const refused = await provider().planResourceChange({}).catch((e: unknown) => ConnectError.from(e));
    expect([(refused as ConnectError).code, (refused as ConnectError).rawMessage]).toEqual([Code.FailedPrecondition, "not now"]);
    const http = await provider().importResourceState({}).catch((e: unknown) => ConnectError.from(e));
    expect([(http as ConnectError).code, (http as ConnectError).rawMessage]).toEqual([Code.Unknown, "an HTTP answer"]);
  });

  it("fails a call whose answer is not the method's message, and goes on serving", async () => {
    const bad = await provider().moveResourceState({}, { timeoutMs: 5000 }).catch((e: unknown) => ConnectError.from(e));
    expect((bad as ConnectError).code).toBe(Code.Unknown);
    expect((await provider().getMetadata({})).resources).toHaveLength(2);
  });

  /** One call by hand: the raw body sent, the status of the answer. */
  const rawCall = (path: string, body: Buffer) =>
    new Promise<{ status: string | undefined; message: string | undefined }>((resolve, reject) => {
      const session = http2.connect(base);
      session.on("error", reject);
      const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
      let status: string | undefined;
      let message: string | undefined;
      const take = (headers: http2.IncomingHttpHeaders) => {
        status ??= headers["grpc-status"] as string | undefined;
        message ??= headers["grpc-message"] as string | undefined;
      };
      req.on("response", take);
      req.on("trailers", take);
      req.resume();
      req.on("close", () => {
        session.close();
        resolve({ status, message: message === undefined ? undefined : decodeURIComponent(message) });
      });
      req.end(body);
    });

  it("refuses a compressed message and a body that is not exactly one message, before calling the implementation", async () => {
    const compressed = Buffer.from([1, 0, 0, 0, 2, 0x0a, 0x00]);
    expect(await rawCall("/tfplugin6.Provider/GetMetadata", compressed)).toEqual({ status: "12", message: "compressed messages are not accepted" });
    const cut = Buffer.from([0, 0, 0, 0, 9, 0x0a]);
    expect(await rawCall("/tfplugin6.Provider/GetMetadata", cut)).toEqual({ status: "3", message: "expected exactly one length-prefixed message" });
    const fine = Buffer.from([0, 0, 0, 0, 0]);
    expect((await rawCall("/tfplugin6.Provider/GetMetadata", fine)).status).toBe("0");
  });
});
