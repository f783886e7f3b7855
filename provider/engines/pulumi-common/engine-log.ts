import * as path from "node:path";
import { type Reporter, SILENT } from "../../core/contract";

export { type Reporter, SILENT };

/** True inside the process Pulumi starts to run dynamic providers (`<pulumi>/cmd/dynamic-provider`). */
export function inDynamicProviderHost(): boolean {
  return (require.main?.filename ?? "").includes(`${path.sep}dynamic-provider${path.sep}`);
}

let nativePlugin = false;

/** Called by the native plugin's entry: it too is started with the engine's address as first argument. */
export function useEngineLogInPlugin(): void {
  nativePlugin = true;
}

/** The parts of Pulumi's generated engine protocol used here. */
interface LogRequest {
  setSeverity(severity: number): void;
  setMessage(message: string): void;
  setUrn(urn: string): void;
  setEphemeral(ephemeral: boolean): void;
}
interface EngineProto {
  LogRequest: new () => LogRequest;
  LogSeverity: { INFO: number; WARNING: number };
}
interface Engine {
  client: { log(request: LogRequest, done: () => void): void };
  proto: EngineProto;
}

// Pulumi's generated engine client, loaded lazily from the @pulumi/pulumi the program installed.
let engine: Engine | null | undefined;

/**
 * The dynamic provider process is started as `node <pulumi>/cmd/dynamic-provider <engine address>`:
 * that address is where the engine listens for Log calls.
 */
function engineClient(): Engine | null {
  if (engine !== undefined) return engine;
  engine = null;
  const address = process.argv[2];
  if (!address || !(nativePlugin || inDynamicProviderHost())) return engine;
  try {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    const load = <T>(id: string): T => require(require.resolve(id, { paths: [pulumiDir] }));
    const grpc = load<{ credentials: { createInsecure(): unknown } }>("@grpc/grpc-js");
    const rpc = load<{ EngineClient: new (address: string, credentials: unknown) => Engine["client"] }>("@pulumi/pulumi/proto/engine_grpc_pb");
    engine = { client: new rpc.EngineClient(address, grpc.credentials.createInsecure()), proto: load<EngineProto>("@pulumi/pulumi/proto/engine_pb") };
  } catch {
    engine = null;
  }
  return engine;
}

/** One engine Log call: the message, whether it stays out of the Diagnostics, and its severity. */
export interface LogMessage {
  urn: string;
  message: string;
  ephemeral: boolean;
  warning: boolean;
}

function send({ urn, message, ephemeral, warning }: LogMessage): Promise<void> {
  const e = engineClient();
  if (!e) return Promise.resolve();
  const request = new e.proto.LogRequest();
  request.setSeverity(warning ? e.proto.LogSeverity.WARNING : e.proto.LogSeverity.INFO);
  request.setMessage(message);
  request.setUrn(urn);
  request.setEphemeral(ephemeral);
  // A message that cannot be shown is no reason to fail the operation.
  return new Promise((resolve) => e.client.log(request, () => resolve()));
}

/**
 * The reporter of the resource whose URN the SDK sent as the hidden input `resourceUrn`.
 * @param deliver - sends one Log call. @default the engine's Log RPC (nothing outside Pulumi)
 */
export function reporterFor(props: Record<string, unknown>, deliver: (log: LogMessage) => Promise<void> = send): Reporter {
  const urn = props.resourceUrn;
  if (typeof urn !== "string" || !urn.startsWith("urn:pulumi:")) return SILENT;
  return {
    progress: (message) => deliver({ urn, message, ephemeral: true, warning: false }),
    warn: (message) => deliver({ urn, message, ephemeral: false, warning: true }),
    note: (message) => deliver({ urn, message, ephemeral: true, warning: false }),
  };
}
