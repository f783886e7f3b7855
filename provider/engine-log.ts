import * as path from "node:path";

/**
 * What an operation tells the person running Pulumi while it works.
 *
 * A dynamic provider's stdout and stderr reach the CLI only as messages of the whole stack. The
 * engine's own Log RPC, given the resource's URN, puts a message on the resource's row instead:
 * an ephemeral one is shown on the row (progress), a lasting one is also listed under the resource
 * in the Diagnostics at the end (warnings).
 *
 * "Ephemeral" means "not kept in the Diagnostics", not "gone when the step ends": the CLI shows a
 * row's last message, whichever step sent it, until another message for the URN replaces it, and
 * it drops an empty message (pulumi pkg/backend/display: rows.go keeps `LastDiag` across the row's
 * steps; progress.go returns early on an empty DiagEvent), so a row's text can be replaced but
 * never cleared. What a step sends last must therefore still read true on the row's later steps:
 * a wait ends with a message saying it is over and whose operation it was (core/wait.ts).
 */
export interface Reporter {
  /**
   * Shows `message` next to the resource. Never throws; the promise (which never rejects) resolves
   * once the engine has the message: only a message that must land before the step ends (the last
   * one of a wait) needs to be awaited.
   */
  progress(message: string): Promise<void>;
  /** A warning shown next to the resource and kept in the run's Diagnostics. Never throws. */
  warn(message: string): Promise<void>;
  /**
   * An informational line on the resource's row, resolved once the engine has it (so it lands on the
   * row before the step's next event). Ephemeral, so not repeated in the Diagnostics. Never throws.
   */
  note(message: string): Promise<void>;
}

/** True inside the process Pulumi starts to run dynamic providers (`<pulumi>/cmd/dynamic-provider`). */
export function inDynamicProviderHost(): boolean {
  return (require.main?.filename ?? "").includes(`${path.sep}dynamic-provider${path.sep}`);
}

let nativePlugin = false;

/** Called by the native plugin's entry: it too is started with the engine's address as first argument. */
export function useEngineLogInPlugin(): void {
  nativePlugin = true;
}

/** A reporter that says nothing: outside Pulumi's dynamic provider process, or without a URN. */
export const SILENT: Reporter = { progress: async () => {}, warn: async () => {}, note: async () => {} };

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
