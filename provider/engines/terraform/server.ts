import { appendFileSync } from "node:fs";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { GRPCController } from "../../../proto/gen/goplugin/grpc_controller_pb";
import { Provider } from "../../../proto/gen/tfplugin6/tfplugin6_pb";
import { createPluginCertificate } from "./certificate";
import { unaryGrpcHandler } from "./grpc";
import { providerService } from "./provider-service";
import { Stopper } from "./stopper";

/** The magic cookie of Terraform and OpenTofu plugins (go-plugin's handshake config). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** What {@link servePlugin} needs from its process; tests pass their own. */
export interface PluginProcess {
  env: Readonly<Record<string, string | undefined>>;
  /** Writes the handshake line (stdout: nothing may be printed there before it). */
  announce(line: string): void;
  /** Ends the process (GRPCController.Shutdown, a lost parent). */
  exit(code: number): void;
  /** The parent's pid now; a change means tofu is gone and this process was reparented. */
  parentPid(): number;
}

/**
 * Serves the provider the way go-plugin expects: TLS with a fresh certificate announced in the
 * handshake line and the client's certificate required (AutoMTLS), unless tofu disabled TLS; the
 * calls are unary gRPC, dispatched on node:http2's streams by grpc.ts.
 * @returns the server, listening on 127.0.0.1 (tofu accepts any port).
 */
export async function servePlugin(proc: PluginProcess): Promise<http2.Http2Server> {
  const { env } = proc;
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new Error(
      "terraform-provider-clusterform is a plugin of OpenTofu and Terraform, not a program to run by hand: declare it in a configuration's required_providers and run tofu (see docs/opentofu.md)",
    );
  }
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? "6").split(",").map((v) => v.trim());
  if (!versions.includes("6")) {
    throw new Error(`this provider speaks plugin protocol 6; the client offers ${versions.join(", ")} (use OpenTofu >= 1.0 or Terraform >= 1.0)`);
  }
  const stopper = new Stopper();
  const onStream = unaryGrpcHandler([
    { service: Provider, impl: withRequestLog(providerService(stopper), env.CLUSTERFORM_TF_REQUEST_LOG) },
    {
      service: GRPCController,
      impl: {
        shutdown() {
          // Answer first, then exit: tofu waits for the reply.
          setTimeout(() => proc.exit(0), 5);
          return {};
        },
      },
    },
  ]);
  const clientCert = env.PLUGIN_CLIENT_CERT;
  const tls = env.TF_DISABLE_PLUGIN_TLS !== "1" && clientCert ? createPluginCertificate() : undefined;
  const server = tls
    ? http2.createSecureServer({ key: tls.keyPem, cert: tls.certPem, ca: [clientCert!], requestCert: true, rejectUnauthorized: true })
    : http2.createServer();
  server.on("stream", onStream);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const cert = tls ? tls.der.toString("base64").replace(/=+$/, "") : "";
  proc.announce(`1|6|tcp|127.0.0.1:${port}|grpc|${cert}\n`);
  watchParent(proc);
  return server;
}

/**
 * With CLUSTERFORM_TF_REQUEST_LOG set to a file, every call tofu makes is appended to it as one
 * line: the process id, the call, the resource type and, for ApplyResourceChange, what it does
 * (create, update or delete). Shows which provider process of a command answered what.
 */
function withRequestLog<S extends Record<string, unknown>>(service: S, file: string | undefined): S {
  if (!file) return service;
  const kinds = (req: Record<string, unknown>) => {
    const has = (v: unknown) => {
      const d = v as { msgpack?: Uint8Array; json?: Uint8Array } | undefined;
      // msgpack of a null object is the single byte 0xc0.
      return !!d && ((d.msgpack?.length ?? 0) > 0 && !(d.msgpack!.length === 1 && d.msgpack![0] === 0xc0) || (d.json?.length ?? 0) > 0);
    };
    if (!("plannedState" in req)) return "";
    return has(req.priorState) ? (has(req.plannedState) ? " update" : " delete") : " create";
  };
  return Object.fromEntries(
    Object.entries(service).map(([name, method]) => [
      name,
      typeof method !== "function"
        ? method
        : (req: Record<string, unknown>, ctx: unknown) => {
            appendFileSync(file, `${process.pid} ${name}${typeof req?.typeName === "string" ? ` ${req.typeName}` : ""}${kinds(req ?? {})}\n`);
            return (method as (r: unknown, c: unknown) => unknown)(req, ctx);
          },
    ]),
  ) as S;
}

/** tofu killed with SIGKILL cannot stop its providers: exit when the parent is gone. */
function watchParent(proc: PluginProcess): void {
  const parent = proc.parentPid();
  const timer = setInterval(() => {
    if (proc.parentPid() !== parent) proc.exit(0);
  }, 500);
  timer.unref();
}
