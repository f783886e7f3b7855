import * as grpc from "@grpc/grpc-js";
import type * as pulumi from "@pulumi/pulumi";
import * as providerServer from "@pulumi/pulumi/provider";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { expect } from "vitest";
import { definitionProps } from "../../cli/plan/engine-props";
import { loadKinds } from "../../cli/plan/planners";
import { planChange } from "../../cli/plan/plan-change";
import type { Kind } from "../../core/definition/kind";
import { toEngineNames } from "../../core/definition/names";
import { type KindType, kindOf } from "../../kinds";
import { type AdapterPlane, type Applied, type DrivenResource, type EngineDriver, InOrder, type Previewed, type Program, pulumiReplaceOrder, type StateEntry } from "../testing";
import { type NativePlugin, nativePlugin } from "./provider";
import { SECRET_SIG, SIG_KEY, unwrapSecrets } from "./secrets";
import { installServerHooks } from "./server-hooks";
import { parseUrn } from "./urn";

/*
 * The plugin's real gRPC ResourceProvider service in this process (test helper, not built into the
 * package): `@pulumi/pulumi/provider`'s server with the plugin's request hooks, as main.ts serves
 * it, called through a grpc-js client of Pulumi's generated ResourceProvider stubs.
 *
 * The engine starts one plugin process per run (`pulumi up`, `pulumi destroy`); the package's server
 * can be started once per process. So the one server of a test file hands each request to the
 * plugin (nativePlugin: a core of its own) of its stack's current run, by the URN's stack: a test
 * begins a run with {@link NativeServer.newRun}, which sends Configure as the engine does.
 */

type Props = Record<string, unknown>;
type Provider = pulumi.provider.Provider;

/** A value wrapped as the engine wraps a secret. */
export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** A protobuf Struct of plain values (what the engine sends as properties). */
export function struct(props: Props): Struct {
  return Struct.fromJavaScript(props as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The plugin's service as the engine calls it, one promise per RPC. */
export interface NativeServer {
  /** Starts a run of `stack`: a new plugin process's provider for that stack's URNs, configured by a Configure request with `args`. */
  newRun(stack: string, args: Props): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<pb.CheckResponse>;
  diff(req: { id: string; urn: string; olds: Props; news: Props; oldInputs: Props }): Promise<pb.DiffResponse>;
  create(urn: string, properties: Props, timeoutSeconds: number): Promise<pb.CreateResponse>;
  /** Read: refresh with the state's properties and inputs, or import without them. */
  read(id: string, urn: string, state?: { properties: Props; inputs: Props }): Promise<pb.ReadResponse>;
  update(req: { id: string; urn: string; olds: Props; news: Props; oldInputs: Props; timeoutSeconds: number }): Promise<pb.UpdateResponse>;
  delete(req: { id: string; urn: string; properties: Props; oldInputs: Props; timeoutSeconds: number }): Promise<void>;
  checkConfig(urn: string, news: Props): Promise<pb.CheckResponse>;
  /** Invoke of a function (`clusterform:cmassh:getCluster`) in the run started last. */
  invoke(token: string, args: Props): Promise<pb.InvokeResponse>;
  cancel(): Promise<void>;
  close(): void;
}

/** Calls one unary RPC of the client. */
function unary<Req, Res>(fn: (req: Req, callback: (err: grpc.ServiceError | null, res: Res) => void) => unknown, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn(req, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The provider `main` serves: each call goes to the plugin of the URN's stack's current run. */
function routing(runs: Map<string, NativePlugin>): Provider {
  const of = (urn: string): Provider => {
    const plugin = runs.get(parseUrn(urn).stack);
    if (!plugin) throw new Error(`test harness: no run started for the stack of ${urn}`);
    return plugin.provider;
  };
  // Each method hands over synchronously: the plugin reads the request hooks' values in the same turn.
  return {
    version: "0.0.0-test",
    getSchema: async () => "{}",
    check: (urn, olds, news) => of(urn).check!(urn, olds, news),
    diff: (id, urn, olds, news) => of(urn).diff!(id, urn, olds, news),
    create: (urn, inputs) => of(urn).create!(urn, inputs),
    read: (id, urn, props) => of(urn).read!(id, urn, props),
    update: (id, urn, olds, news) => of(urn).update!(id, urn, olds, news),
    delete: (id, urn, props) => of(urn).delete!(id, urn, props),
    // A function call names no resource: it goes to the run started last.
    invoke: (token, inputs) => {
      const plugin = [...runs.values()].at(-1);
      if (!plugin) throw new Error("test harness: no run started for a function call");
      return plugin.provider.invoke!(token, inputs);
    },
  };
}

let started: Promise<NativeServer> | undefined;

/**
 * Serves the plugin's ResourceProvider service on 127.0.0.1 in this process (once per test file:
 * `@pulumi/pulumi/provider`'s `main` serves once per process) and connects a client to it.
 */
export function startNativeServer(): Promise<NativeServer> {
  started ??= serve();
  return started;
}

async function serve(): Promise<NativeServer> {
  const runs = new Map<string, NativePlugin>();
  const base = nativePlugin("0.0.0-test", async () => "{}");
  // The plugin newRun is starting: the Configure it sends is that plugin's (runs start one at a time).
  let starting: NativePlugin | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  installServerHooks({
    configure: (req) => starting?.hooks.configure(req),
    checkConfig: (olds, news) => base.hooks.checkConfig(olds, news),
    cancel: () => base.hooks.cancel(),
  });
  // The server `main` builds, to close it at the end, and the port it prints.
  const hooked = grpc.Server.prototype.addService;
  let server: grpc.Server | undefined;
  grpc.Server.prototype.addService = function (this: grpc.Server, ...args: Parameters<typeof hooked>) {
    server = this;
    return hooked.apply(this, args);
  };
  const print = console.log;
  let port = "";
  console.log = (...args: unknown[]) => {
    if (port === "" && /^\d+$/.test(String(args[0]))) port = String(args[0]);
    else print(...args);
  };
  try {
    await providerServer.main(routing(runs), []);
  } finally {
    console.log = print;
    grpc.Server.prototype.addService = hooked;
  }
  if (port === "" || !server) throw new Error("test harness: the package's server did not start (main serves once per process)");
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Req, Res>(method: (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown, req: Req) => unary<Req, Res>(method.bind(client), req);

  return {
    newRun(stack, args) {
      const start = async () => {
        const plugin = nativePlugin("0.0.0-test", async () => "{}");
        starting = plugin;
        const req = new pb.ConfigureRequest();
        req.setArgs(struct(args));
        req.setAcceptsecrets(true);
        req.setAcceptresources(true);
        await call(client.configure, req);
        runs.set(stack, plugin);
        starting = undefined;
      };
      const started = queue.then(start);
      queue = started.catch(() => undefined);
      return started;
    },
    check: (urn, olds, news) => {
      const req = new pb.CheckRequest();
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      req.setRandomseed(new Uint8Array(32).fill(7));
      return call(client.check, req);
    },
    diff: ({ id, urn, olds, news, oldInputs }) => {
      const req = new pb.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      req.setOldInputs(struct(oldInputs));
      return call(client.diff, req);
    },
    create: (urn, properties, timeoutSeconds) => {
      const req = new pb.CreateRequest();
      req.setUrn(urn);
      req.setProperties(struct(properties));
      req.setTimeout(timeoutSeconds);
      return call(client.create, req);
    },
    read: (id, urn, state) => {
      const req = new pb.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      if (state) {
        req.setProperties(struct(state.properties));
        req.setInputs(struct(state.inputs));
      }
      return call(client.read, req);
    },
    update: ({ id, urn, olds, news, oldInputs, timeoutSeconds }) => {
      const req = new pb.UpdateRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      req.setOldInputs(struct(oldInputs));
      req.setTimeout(timeoutSeconds);
      return call(client.update, req);
    },
    delete: async ({ id, urn, properties, oldInputs, timeoutSeconds }) => {
      const req = new pb.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(struct(properties));
      req.setOldInputs(struct(oldInputs));
      req.setTimeout(timeoutSeconds);
      await call(client.delete, req);
    },
    checkConfig: (urn, news) => {
      const req = new pb.CheckRequest();
      req.setUrn(urn);
      req.setOlds(struct({}));
      req.setNews(struct(news));
      return call(client.checkConfig, req);
    },
    invoke: (token, args) => {
      const req = new pb.InvokeRequest();
      req.setTok(token);
      req.setArgs(struct(args));
      return call(client.invoke, req);
    },
    cancel: async () => {
      await call(client.cancel, new Empty());
    },
    close: () => {
      client.close();
      server?.forceShutdown();
    },
  };
}

/** The properties of a response's Struct as plain values (secrets stay wrapped, as the engine keeps them). */
export function propsOf(s: Struct | undefined): Props {
  return (s?.toJavaScript() ?? {}) as Props;
}

/**
 * The object a failed Create or Update reports as created (ErrorResourceInitFailed in the status
 * details): the engine records it with these properties. Undefined when the error carries none.
 */
export function initFailureOf(err: grpc.ServiceError): { id: string; properties: Props; reasons: string[] } | undefined {
  const [bytes] = err.metadata?.get("grpc-status-details-bin") ?? [];
  if (!bytes) return undefined;
  const status = Status.deserializeBinary(typeof bytes === "string" ? Buffer.from(bytes, "base64") : bytes);
  const detail = status.getDetailsList().find((d) => d.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
  const failed = detail?.unpack(pb.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
  return failed ? { id: failed.getId(), properties: propsOf(failed.getProperties()), reasons: failed.getReasonsList() } : undefined;
}

/** The failures of a Check response, as `{ property, reason }`. */
export function failuresOf(res: pb.CheckResponse): { property: string; reason: string }[] {
  return res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

/** Configure's args for a plane, the passwords secret as the engine sends secret configuration. */
export function configArgsOf(plane: AdapterPlane): Props {
  const { cyclecloudPassword, senlinPassword, ...plain } = plane.settings;
  return { ...plain, cyclecloudPassword: secret(cyclecloudPassword), senlinPassword: secret(senlinPassword) };
}

/** `Diff`'s `changes`: DIFF_NONE or DIFF_SOME (pulumirpc.DiffResponse.DiffChanges). */
export const DIFF_NONE = 1;
export const DIFF_SOME = 2;
/** `customTimeouts` of every create, update and delete: 10 minutes, in seconds. */
export const TIMEOUT = 600;

/** A resource of a kind in a stack: what the program declares, and the engine's state of it. */
export class NativeResource implements DrivenResource {
  readonly engine = "pulumi";
  readonly urn: string;
  /** The program's inputs now (definition keys). */
  program: Props = {};
  entry: StateEntry | undefined;
  /** The steps of this resource's life, in order beside other resources' (lifecycle tests). */
  readonly steps = new InOrder();
  private kind: Kind | undefined;

  constructor(
    readonly type: KindType,
    readonly name: string,
    readonly stack: string,
    private readonly planeOf: () => AdapterPlane,
  ) {
    this.urn = nativeUrn(stack, type, name);
  }

  get plane(): AdapterPlane {
    return this.planeOf();
  }

  /** A new run of the engine for this stack: a new plugin, configured. */
  async run(): Promise<void> {
    await (await startNativeServer()).newRun(this.stack, configArgsOf(this.plane));
  }

  get live(): StateEntry {
    if (!this.entry) throw new Error(`${this.type} ${this.name}: no state entry (the create step did not record one)`);
    return this.entry;
  }

  get outputs(): Props {
    return this.entry ? { ...definitionProps(`clusterform:${this.type}`, unwrapSecrets(this.entry.outputs).plain), id: this.entry.id } : {};
  }

  /** Check of the program against the entry's inputs (or none: a new object, or a replacement's second Check). */
  async check(olds: Props, news: Props): Promise<Props> {
    const res = await (await startNativeServer()).check(this.urn, olds, news);
    expect(failuresOf(res)).toEqual([]);
    return propsOf(res.getInputs());
  }

  /** Diff against the entry, as the engine asks it. */
  async diff(news: Props): Promise<{ changes: number; replaces: string[]; deleteBeforeReplace: boolean }> {
    const res = await (await startNativeServer()).diff({ id: this.live.id, urn: this.urn, olds: this.live.outputs, news, oldInputs: this.live.inputs });
    return { changes: res.getChanges(), replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
  }

  async create(inputs: Props): Promise<StateEntry> {
    const res = await (await startNativeServer()).create(this.urn, inputs, TIMEOUT);
    return { id: res.getId(), inputs, outputs: propsOf(res.getProperties()) };
  }

  async update(news: Props): Promise<StateEntry> {
    const res = await (await startNativeServer()).update({ id: this.live.id, urn: this.urn, olds: this.live.outputs, news, oldInputs: this.live.inputs, timeoutSeconds: TIMEOUT });
    return { ...this.live, inputs: news, outputs: propsOf(res.getProperties()) };
  }

  async deleteLive(): Promise<void> {
    await (await startNativeServer()).delete({ id: this.live.id, urn: this.urn, properties: this.live.outputs, oldInputs: this.live.inputs, timeoutSeconds: TIMEOUT });
  }

  /** The program's inputs in Pulumi names, as a program of the plugin's SDKs sends them. */
  private async news(program: Program): Promise<Props> {
    this.kind ??= await kindOf(this.type);
    this.program = program.inputs;
    return toEngineNames(this.kind, program.inputs, "pulumi");
  }

  /** One run's Check and Diff of the program, as `pulumi preview` and the start of `pulumi up` make them. */
  private async plan(program: Program): Promise<Previewed & { inputs: Props }> {
    await loadKinds();
    const news = await this.news(program);
    const inputs = await this.check(this.entry?.inputs ?? {}, news);
    const type = `clusterform:${this.type}`;
    const named = (props: Props) => definitionProps(type, unwrapSecrets(props).plain);
    if (!this.entry) return { op: "create", operations: planChange({ type, urn: this.urn, op: "create", news: named(inputs) })?.operations ?? [], inputs };
    const diff = await this.diff(inputs);
    if (diff.changes !== DIFF_SOME) return { op: "same", operations: [], inputs };
    const op = diff.replaces.length > 0 ? "replace" : "update";
    // The preview's step as `clusterform plan` reads it: the old outputs, the checked new inputs.
    const operations = planChange({ type, urn: this.urn, op, id: this.live.id, olds: named(this.live.outputs), news: named(inputs) })?.operations ?? [];
    const order = op === "replace" ? pulumiReplaceOrder(program.deleteBeforeReplace, diff.deleteBeforeReplace) : undefined;
    return { op, order, operations, inputs };
  }

  async preview(program: Program): Promise<Previewed> {
    await this.run();
    const { op, order, operations } = await this.plan(program);
    return { op, order, operations };
  }

  async apply(program: Program): Promise<Applied> {
    await this.run();
    const { inputs, ...previewed } = await this.plan(program);
    const steps: Applied["steps"] = [];
    if (previewed.op === "create") {
      this.entry = await this.create(inputs);
      steps.push("create");
    } else if (previewed.op === "update") {
      this.entry = await this.update(inputs);
      steps.push("update");
    } else if (previewed.op === "replace") {
      // The engine's second Check, without old inputs, gives the replacement's inputs.
      const replacement = await this.check({}, await this.news(program));
      if (previewed.order === "delete-first") await this.deleteLive();
      const made = await this.create(replacement);
      if (previewed.order === "create-first") await this.deleteLive();
      this.entry = made;
      steps.push(...(previewed.order === "delete-first" ? (["delete", "create"] as const) : (["create", "delete"] as const)));
    } else {
      // A step without a change still records the program's new inputs.
      this.entry = { ...this.live, inputs };
    }
    return { ...previewed, steps };
  }

  async refresh(): Promise<void> {
    await this.run();
    const res = await (await startNativeServer()).read(this.live.id, this.urn, { properties: this.live.outputs, inputs: this.live.inputs });
    expect(res.getId(), "the object is still there").toBe(this.live.id);
    this.entry = { ...this.live, outputs: propsOf(res.getProperties()) };
  }

  async destroy(): Promise<void> {
    await this.run();
    await this.deleteLive();
    this.entry = undefined;
  }
}

/** The URN of a native resource. */
export function nativeUrn(stack: string, type: string, name: string): string {
  return `urn:pulumi:${stack}::inproc::clusterform:${type}::${name}`;
}

/** The native plugin's service as the Pulumi engine drives it. */
export const NATIVE_DRIVER: EngineDriver = {
  engine: "pulumi",
  open: async (type, name, stack, plane) => new NativeResource(type, name, stack, () => plane),
};
