import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdapterPlane, auditSeq, InOrder, KIND_CASES, type KindCase, platformCalls, platformWrites, pulumiNamed, type StateEntry, startAdapterPlane } from "../testing";
import { unwrapSecrets } from "./secrets";
import { failuresOf, type NativeServer, propsOf, secret, startNativeServer } from "./testing";

// The plugin's gRPC ResourceProvider service, in this process, called as the Pulumi engine calls it
// (request by request, one run after another, each run a new plugin with its own core) against the
// local control plane: the life of one kind of every platform, and the replacements of another
// resource of each kind on a plane of its own. Kinds and the two resources run side by side; the
// steps of one resource run in order (InOrder).

type Props = Record<string, unknown>;

const DIFF_NONE = 1;
const DIFF_SOME = 2;
/** `customTimeouts` of every create, update and delete: 10 minutes, in seconds. */
const TIMEOUT = 600;
/** The two resources of each kind: one lives its whole life, the other is replaced; each on its own plane. */
type Chain = "life" | "replacing";
const planes = {} as Record<Chain, AdapterPlane>;
let server: NativeServer;
beforeAll(async () => {
  [planes.life, planes.replacing, server] = await Promise.all([startAdapterPlane(), startAdapterPlane(), startNativeServer()]);
});
afterAll(async () => {
  server?.close();
  await Promise.all(Object.values(planes).map((p) => p.close()));
});

/** Configure's args for a plane, the passwords secret as the engine sends secret configuration. */
function configArgsOf(plane: AdapterPlane): Props {
  const { cyclecloudPassword, senlinPassword, ...plain } = plane.settings;
  return { ...plain, cyclecloudPassword: secret(cyclecloudPassword), senlinPassword: secret(senlinPassword) };
}


/** A kind's resource in a stack of its own: what the program declares, and the engine's state of it. */
class Resource {
  readonly stack: string;
  readonly urn: string;
  program: Props;
  entry: StateEntry | undefined;
  readonly steps = new InOrder();

  constructor(
    readonly c: KindCase,
    readonly chain: Chain,
  ) {
    this.stack = `native-${c.api}-${chain}`;
    this.urn = urnOf(this.stack, c, "main");
    this.program = { ...c.program };
  }

  /** The program's inputs in Pulumi names, the first one secret (as a program passing `pulumi.secret(...)`). */
  news(extra: Props = {}): Props {
    const named = pulumiNamed({ ...this.program, ...extra });
    const [first] = Object.keys(pulumiNamed(this.c.program));
    return { ...named, [first]: secret(named[first]) };
  }

  get plane(): AdapterPlane {
    return planes[this.chain];
  }

  /** A new run of the engine for this stack: a new plugin, configured. */
  run(): Promise<void> {
    return server.newRun(this.stack, configArgsOf(this.plane));
  }

  get live(): StateEntry {
    if (!this.entry) throw new Error(`${this.c.type}: no state entry (the create step did not record one)`);
    return this.entry;
  }

  /** Check of the program against the entry's inputs (or none: a new object, or a replacement's second Check). */
  async check(olds: Props, news: Props): Promise<Props> {
    const res = await server.check(this.urn, olds, news);
    expect(failuresOf(res)).toEqual([]);
    return propsOf(res.getInputs());
  }

  /** Diff against the entry, as the engine asks it. */
  async diff(news: Props): Promise<{ changes: number; replaces: string[]; deleteBeforeReplace: boolean }> {
    const res = await server.diff({ id: this.live.id, urn: this.urn, olds: this.live.outputs, news, oldInputs: this.live.inputs });
    return { changes: res.getChanges(), replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
  }

  async create(inputs: Props): Promise<StateEntry> {
    const res = await server.create(this.urn, inputs, TIMEOUT);
    return { id: res.getId(), inputs, outputs: propsOf(res.getProperties()) };
  }

  async deleteLive(): Promise<void> {
    await server.delete({ id: this.live.id, urn: this.urn, properties: this.live.outputs, oldInputs: this.live.inputs, timeoutSeconds: TIMEOUT });
  }
}

function urnOf(stack: string, c: KindCase, name: string): string {
  return `urn:pulumi:${stack}::inproc::clusterform:${c.type}::${name}`;
}

const resources = new Map(KIND_CASES.flatMap((c) => (["life", "replacing"] as const).map((chain) => [`${chain} ${c.type}`, new Resource(c, chain)])));
type Step = (r: Resource, c: KindCase, plane: AdapterPlane) => Promise<void>;
const each = (chain: Chain, cases: readonly KindCase[], name: string, fn: Step) =>
  it.concurrent.for(cases)(`$type: ${name}`, async (c) => {
    const r = resources.get(`${chain} ${c.type}`)!;
    await r.steps.step(name, () => fn(r, c, r.plane));
  });

/** Creates with Check then Create, secrets kept secret, and the next run plans nothing. */
const creates: Step = async (r, c, plane) => {
  await r.run();
  const inputs = await r.check({}, r.news());
  const since = await auditSeq(plane.t);
  r.entry = await r.create(inputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.createWrites);
  const [first] = Object.keys(pulumiNamed(c.program));
  expect(r.live.outputs[first]).toEqual(secret(pulumiNamed(c.program)[first]));
  expect(r.live.outputs).not.toHaveProperty("__provider");
  expect(r.live.outputs).not.toHaveProperty("resourceName");
  await r.run();
  expect(await r.diff(await r.check(r.live.inputs, r.news()))).toEqual({ changes: DIFF_NONE, replaces: [], deleteBeforeReplace: false });
};

/** Updates in place with the platform's own operation alone, then plans nothing. */
const updatesInPlace: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.update.patch };
  await r.run();
  const news = await r.check(r.live.inputs, r.news());
  expect(await r.diff(news)).toEqual({ changes: DIFF_SOME, replaces: [], deleteBeforeReplace: false });
  const since = await auditSeq(plane.t);
  const res = await server.update({ id: r.live.id, urn: r.urn, olds: r.live.outputs, news, oldInputs: r.live.inputs, timeoutSeconds: TIMEOUT });
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.update.writes);
  r.entry = { ...r.live, inputs: news, outputs: propsOf(res.getProperties()) };
  expect(unwrapSecrets(r.live.outputs).plain).toMatchObject(pulumiNamed(c.update.patch));
  await r.run();
  expect(await r.diff(await r.check(r.live.inputs, r.news()))).toEqual({ changes: DIFF_NONE, replaces: [], deleteBeforeReplace: false });
};

/** Refreshes the live object with a Read of its state, reading only, the state unchanged. */
const refreshes: Step = async (r, c, plane) => {
  await r.run();
  const since = await auditSeq(plane.t);
  const res = await server.read(r.live.id, r.urn, { properties: r.live.outputs, inputs: r.live.inputs });
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
  expect({ id: res.getId(), props: propsOf(res.getProperties()) }).toEqual({ id: r.live.id, props: r.live.outputs });
};

/** Imports the live object with a Read without properties, reading only; the program then plans nothing, and a later change is planned. */
const imports: Step = async (r, c, plane) => {
  const stack = `${r.stack}-import`;
  const urn = urnOf(stack, c, "imported");
  await server.newRun(stack, configArgsOf(plane));
  const since = await auditSeq(plane.t);
  const read = await server.read(r.live.id, urn);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
  expect(read.getId()).toBe(r.live.id);
  const importedInputs = propsOf(read.getInputs());
  const importedProps = propsOf(read.getProperties());
  // The program `pulumi import` prints (every input the Read answered that the schema declares), plus
  // what the platform cannot report, which the user writes in.
  const { autoNamed: _hidden, ...written } = importedInputs;
  const unreported = (importedProps.importUnreported ?? []) as string[];
  const program = { ...written, ...pulumiNamed(Object.fromEntries(Object.entries(r.program).filter(([k]) => unreported.includes(k)))) };
  const checked = await server.check(urn, importedInputs, program);
  expect(failuresOf(checked)).toEqual([]);
  const inputs = propsOf(checked.getInputs());
  const diff = await server.diff({ id: r.live.id, urn, olds: importedProps, news: inputs, oldInputs: importedInputs });
  expect(diff.getChanges()).toBe(DIFF_NONE);
  // The next run: the engine now holds the program's inputs as the old inputs, the read properties as the state.
  await server.newRun(stack, configArgsOf(plane));
  const changed = propsOf((await server.check(urn, inputs, { ...program, ...pulumiNamed(c.changeAfterImport) })).getInputs());
  const later = await server.diff({ id: r.live.id, urn, olds: importedProps, news: changed, oldInputs: inputs });
  expect({ changes: later.getChanges(), replaces: later.getReplacesList() }).toEqual({ changes: DIFF_SOME, replaces: [] });
};

/** Replaces creating first, as its Diff answers when the new object gets another identity. */
const replacesCreatingFirst: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.replace };
  await r.run();
  const news = await r.check(r.live.inputs, r.news());
  const planned = await r.diff(news);
  expect(planned).toMatchObject({ changes: DIFF_SOME, deleteBeforeReplace: false });
  expect(planned.replaces).toEqual(expect.arrayContaining(Object.keys(pulumiNamed(c.replace))));
  const inputs = await r.check({}, r.news());
  const since = await auditSeq(plane.t);
  const made = await r.create(inputs);
  await r.deleteLive();
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.createWrites, ...c.deleteWrites]);
  expect(made.id).not.toBe(r.live.id);
  r.entry = made;
};

/** Replaces deleting first, as its Diff answers when the new object keeps the identity. */
const replacesDeletingFirst: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.replaceKeepingIdentity!(r.live.outputs) };
  await r.run();
  const news = await r.check(r.live.inputs, r.news());
  expect(await r.diff(news)).toMatchObject({ changes: DIFF_SOME, deleteBeforeReplace: true });
  const inputs = await r.check({}, r.news());
  const since = await auditSeq(plane.t);
  await r.deleteLive();
  const made = await r.create(inputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.deleteWrites, ...c.createWrites]);
  r.entry = made;
};

/** Refuses a bad input in Check, naming the field as Pulumi programs name it, the value and what is allowed, with no platform call. */
const refusesBadInput: Step = async (r, c, plane) => {
  await r.run();
  const since = await auditSeq(plane.t);
  const res = await server.check(r.urn, r.live.inputs, { ...r.news(), [c.bad.names.pulumi]: c.bad.value });
  expect(failuresOf(res)).toEqual([{ property: c.bad.names.pulumi, reason: `${c.bad.names.pulumi} ${c.bad.reason}` }]);
  expect(await platformCalls(plane.t, c.api, since)).toEqual([]);
};

/** Deletes with the platform's delete alone. */
const deletes: Step = async (r, c, plane) => {
  await r.run();
  const since = await auditSeq(plane.t);
  await r.deleteLive();
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.deleteWrites);
};

/** Answers an empty Read for an object deleted out of band, with no write. */
const readsVanished: Step = async (r, c, plane) => {
  await r.run();
  const since = await auditSeq(plane.t);
  const res = await server.read(r.live.id, r.urn, { properties: r.live.outputs, inputs: r.live.inputs });
  expect({ id: res.getId(), props: propsOf(res.getProperties()) }).toEqual({ id: "", props: {} });
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
};

const keepingIdentity = KIND_CASES.filter((c) => c.replaceKeepingIdentity);

describe.concurrent("the native plugin's ResourceProvider service driven as the Pulumi engine drives it", () => {
  describe("the life of one resource", () => {
    each("life", KIND_CASES, "creates with Check then Create, secrets kept secret, and the next run plans nothing", creates);
    each("life", KIND_CASES, "updates in place with the platform's own operation alone, then plans nothing", updatesInPlace);
    each("life", KIND_CASES, "refreshes the live object with a Read of its state, reading only, the state unchanged", refreshes);
    each("life", KIND_CASES, "imports the live object with a Read without properties, reading only; the program then plans nothing, and a later change is planned", imports);
    each("life", KIND_CASES, "refuses a bad input in Check, naming the field as Pulumi programs name it, the value and what is allowed, with no platform call", refusesBadInput);
    each("life", KIND_CASES, "deletes with the platform's delete alone", deletes);
    each("life", KIND_CASES, "answers an empty Read for an object deleted out of band, with no write", readsVanished);
  });

  describe("the replacements of another resource", () => {
    each("replacing", KIND_CASES, "creates with Check then Create, secrets kept secret, and the next run plans nothing", creates);
    each("replacing", KIND_CASES, "replaces creating first, as its Diff answers when the new object gets another identity", replacesCreatingFirst);
    each("replacing", keepingIdentity, "replaces deleting first, as its Diff answers when the new object keeps the identity", replacesDeletingFirst);
    each("replacing", KIND_CASES, "deletes with the platform's delete alone", deletes);
  });
});

describe("the provider configuration", () => {
  it("accepts the plane's endpoint and refuses one that is not a URL, naming the key and the value", async () => {
    const urn = "urn:pulumi:native-config::inproc::pulumi:providers:clusterform::default";
    const args = configArgsOf(planes.life);
    expect(failuresOf(await server.checkConfig(urn, args))).toEqual([]);
    expect(failuresOf(await server.checkConfig(urn, { ...args, endpoint: "not a url" }))).toEqual([
      {
        property: "endpoint",
        reason:
          'resolving the cmassh endpoint: INVALID_CONFIG: stack config clusterform:endpoint is "not a url": it must be an http:// or https:// URL with a host and an optional port, such as http://127.0.0.1:9020',
      },
    ]);
  });
});
