import { appendFileSync } from "node:fs";
import * as path from "node:path";

/**
 * What the plugin needs from the engine's requests that `@pulumi/pulumi/provider`'s server does not
 * pass to a provider object: the Configure request, each operation's timeout, Check's random seed,
 * and a Read without properties (import) that must not crash it.
 */
export interface RequestHooks {
  /** The Configure request, before the server answers it. */
  configure(request: unknown): void;
  /** CheckConfig of an explicit provider's inputs: returns the inputs and failures. */
  checkConfig(olds: Record<string, unknown>, news: Record<string, unknown>): { inputs: Record<string, unknown>; failures: { property: string; reason: string }[] };
  /** Cancel: end every wait now. */
  cancel(): void;
}

/** The request of the operation the server is about to hand to the provider object (set synchronously). */
export interface CurrentRequest {
  method: string;
  /** Seconds the engine allows (`customTimeouts`), 0 when none. */
  timeoutSeconds: number;
}

let current: CurrentRequest | undefined;
let diffOldInputs: Record<string, unknown> | undefined;

/** The old inputs of the Diff request whose provider call is starting (the server passes only the old outputs). */
export function takeDiffOldInputs(): Record<string, unknown> | undefined {
  const taken = diffOldInputs;
  diffOldInputs = undefined;
  return taken;
}

/**
 * The request whose provider call is starting. The server calls the provider object synchronously
 * in the same turn as it receives the request, so this is read at the very start of each method.
 */
export function takeCurrentRequest(): CurrentRequest | undefined {
  const taken = current;
  current = undefined;
  return taken;
}

type Callback = (err: unknown, value?: unknown) => void;
type Call = { request: Record<string, (...a: unknown[]) => unknown> };
type Method = (call: Call, callback: Callback) => unknown;

/** One line per request when CLUSTERFORM_NATIVE_REQUEST_LOG names a file: what the engine sent, never values. */
function logRequest(method: string, req: Call["request"]): void {
  const file = process.env.CLUSTERFORM_NATIVE_REQUEST_LOG;
  if (!file) return;
  const get = (name: string) => (typeof req[name] === "function" ? req[name]() : undefined);
  const keys = (s: unknown) => (s && typeof (s as { toJavaScript?: unknown }).toJavaScript === "function" ? Object.keys((s as { toJavaScript(): object }).toJavaScript()).sort() : undefined);
  const seed = get("getRandomseed_asB64");
  const entry = {
    method,
    urn: get("getUrn"),
    id: get("getId"),
    olds: keys(get("getOlds")),
    oldInputs: keys(get("getOldInputs")),
    properties: keys(get("getProperties")),
    randomSeed: typeof seed === "string" && seed !== "" ? seed.slice(0, 12) : undefined,
    timeout: get("getTimeout"),
    preview: get("getPreview"),
  };
  appendFileSync(path.resolve(file), `${JSON.stringify(entry)}\n`);
}

/**
 * Wraps the service implementation `@pulumi/pulumi/provider`'s `main` registers, by hooking the
 * gRPC server's `addService` of the grpc-js instance that package loads. Every method still runs
 * the package's own server code; the hooks only look at requests first (and fill in a missing
 * Read properties struct, pulumi's `req.getProperties().toJavaScript()` being unguarded), and
 * answer CheckConfig/DiffConfig, which that server leaves unimplemented.
 */
export function installServerHooks(hooks: RequestHooks): void {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const load = <T>(id: string): T => require(require.resolve(id, { paths: [pulumiDir] }));
  const grpc = load<{ Server: { prototype: { addService(service: unknown, impl: Record<string, Method>): void } } }>("@grpc/grpc-js");
  const struct = load<{ Struct: { fromJavaScript(v: object): unknown } }>("google-protobuf/google/protobuf/struct_pb");
  const proto = load<ProviderProto>("@pulumi/pulumi/proto/provider_pb");
  const original = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, impl) {
    const wrapped: Record<string, Method> = Object.create(impl);
    const before = (name: string, fn: (req: Call["request"]) => void) => {
      const orig = impl[name].bind(impl);
      wrapped[name] = (call, callback) => {
        logRequest(name, call.request);
        try {
          fn(call.request);
        } catch (err) {
          return callback(err);
        }
        return orig(call, callback);
      };
    };
    before("configure", (req) => hooks.configure(req));
    before("check", () => {});
    before("diff", (req) => {
      // `old_inputs` (protobuf's getter is getOldInputs): the program's inputs the engine recorded.
      const oldInputs = req.getOldInputs?.() as { toJavaScript(): Record<string, unknown> } | undefined;
      diffOldInputs = oldInputs?.toJavaScript();
    });
    for (const name of ["create", "update", "delete"]) {
      before(name, (req) => {
        current = { method: name, timeoutSeconds: Number(req.getTimeout?.() ?? 0) };
      });
    }
    before("read", (req) => {
      if (!req.getProperties()) req.setProperties(struct.Struct.fromJavaScript({}));
    });
    wrapped.cancel = (call, callback) => {
      logRequest("cancel", call.request);
      hooks.cancel();
      return impl.cancel.bind(impl)(call, callback);
    };
    wrapped.checkConfig = (call, callback) => {
      logRequest("checkConfig", call.request);
      try {
        const req = call.request as unknown as { getOlds(): { toJavaScript(): Record<string, unknown> } | undefined; getNews(): { toJavaScript(): Record<string, unknown> } | undefined };
        const result = hooks.checkConfig(req.getOlds()?.toJavaScript() ?? {}, req.getNews()?.toJavaScript() ?? {});
        const resp = new proto.CheckResponse();
        resp.setInputs(struct.Struct.fromJavaScript(result.inputs));
        resp.setFailuresList(
          result.failures.map((f) => {
            const failure = new proto.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
        );
        callback(null, resp);
      } catch (err) {
        callback(err);
      }
    };
    wrapped.diffConfig = (call, callback) => {
      logRequest("diffConfig", call.request);
      // A changed endpoint or credential applies to the next operation: never replace the provider
      // (that would replace every resource it manages).
      const req = call.request as unknown as { getOlds(): { toJavaScript(): object } | undefined; getNews(): { toJavaScript(): object } | undefined };
      const same = JSON.stringify(req.getOlds()?.toJavaScript() ?? {}) === JSON.stringify(req.getNews()?.toJavaScript() ?? {});
      const resp = new proto.DiffResponse();
      resp.setChanges(same ? proto.DiffResponse.DiffChanges.DIFF_NONE : proto.DiffResponse.DiffChanges.DIFF_SOME);
      callback(null, resp);
    };
    return original.call(this, service, wrapped);
  };
}

interface Settable {
  setInputs(v: unknown): void;
  setFailuresList(v: unknown[]): void;
}
interface ProviderProto {
  CheckResponse: new () => Settable;
  CheckFailure: new () => { setProperty(p: string): void; setReason(r: string): void };
  DiffResponse: (new () => { setChanges(c: number): void }) & { DiffChanges: { DIFF_NONE: number; DIFF_SOME: number } };
}
