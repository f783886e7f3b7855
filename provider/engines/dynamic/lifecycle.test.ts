import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SILENT } from "../../core/contract";
import { Holds, memoryHoldStore } from "../../core/holds";
import { ownerMarker } from "../../core/naming";
import { createCore } from "../../core/runtime";
import { kindOf } from "../../kinds";
import { nativePlugin } from "../pulumi-native/provider";
import { type AdapterPlane, auditSeq, InOrder, KIND_CASES, type KindCase, platformCalls, platformWrites, pulumiNamed, type StateEntry, startAdapterPlane } from "../testing";
import { DYNAMIC_ENGINE } from "./engine";
import { type DynamicMethods, dynamicMethods } from "./provider";

// The dynamic provider's methods called as Pulumi's dynamic provider host calls them, one run of
// the engine after another (a fresh provider process each, as every `pulumi up` starts one), with
// the hidden inputs the SDK sends, against the local control plane: the life of one kind of every
// platform, and the replacements of another resource of each kind on a plane of its own. Kinds and
// the two resources run side by side; the steps of one resource run in order (InOrder).

type Props = Record<string, unknown>;

const PROJECT = "inproc";
const STACK = "dynamic";

/** The two resources of each kind: one lives its whole life, the other is replaced; each on its own plane. */
type Chain = "life" | "replacing";
const planes = {} as Record<Chain, AdapterPlane>;
beforeAll(async () => {
  [planes.life, planes.replacing] = await Promise.all([startAdapterPlane(), startAdapterPlane()]);
});
afterAll(async () => {
  await Promise.all(Object.values(planes).map((p) => p.close()));
});


/** A kind's resource in the stack: what the SDK sends for it, and the engine's state of it. */
class Resource {
  readonly name: string;
  readonly urn: string;
  /** The program's inputs now (definition keys). */
  program: Props;
  entry: StateEntry | undefined;
  readonly steps = new InOrder();

  constructor(
    readonly c: KindCase,
    readonly chain: Chain,
  ) {
    this.name = c.type.replace(":", "-").toLowerCase();
    this.urn = `urn:pulumi:${STACK}::${PROJECT}::pulumi-nodejs:dynamic/${c.type}::${this.name}`;
    this.program = { ...c.program };
  }

  /** What the SDK sends (sdk/internal/identity.ts, resource.ts): the program's inputs and the hidden ones. */
  sdk(deleteBeforeReplace = true): Props {
    return {
      ...this.program,
      __provider: `exports.handler = () => require("clusterform/provider").dynamicProvider(${JSON.stringify(this.c.type)});`,
      owner: ownerMarker(PROJECT, STACK, this.name),
      resourceName: this.name,
      deleteBeforeReplace,
      resourceUrn: this.urn,
    };
  }

  get plane(): AdapterPlane {
    return planes[this.chain];
  }

  /** The provider of one engine run: a process of its own (its own core and held objects), configured. */
  async run(): Promise<DynamicMethods> {
    const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    const methods = dynamicMethods(core, () => kindOf(this.c.type));
    await methods.configure(this.plane.config);
    return methods;
  }

  /** The entry, which an earlier step made. */
  get live(): StateEntry {
    if (!this.entry) throw new Error(`${this.c.type}: no state entry (the create step did not record one)`);
    return this.entry;
  }
}

const resources = new Map(KIND_CASES.flatMap((c) => (["life", "replacing"] as const).map((chain) => [`${chain} ${c.type}`, new Resource(c, chain)])));
type Step = (r: Resource, c: KindCase, plane: AdapterPlane) => Promise<void>;
const each = (chain: Chain, name: string, fn: Step) =>
  it.concurrent.for(KIND_CASES)(`$type: ${name}`, async (c) => {
    const r = resources.get(`${chain} ${c.type}`)!;
    await r.steps.step(name, () => fn(r, c, r.plane));
  });

const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };

/** A run whose Check without old inputs answers the replacement's new inputs (the engine's second Check). */
async function recheck(run: DynamicMethods, r: Resource, deleteBeforeReplace: boolean): Promise<Props> {
  const checked = await run.check({}, r.sdk(deleteBeforeReplace));
  expect(checked.failures).toEqual([]);
  return checked.inputs;
}

/** Creates the object with one check and one create, keeping the hidden inputs in the state. */
const creates: Step = async (r, c, plane) => {
  const run = await r.run();
  const since = await auditSeq(plane.t);
  const checked = await run.check({}, r.sdk());
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toMatchObject({ ...c.program, owner: ownerMarker(PROJECT, STACK, r.name), resourceName: r.name, resourceUrn: r.urn, deleteBeforeReplace: true });
  const made = await run.create(checked.inputs);
  expect(made.outs).toMatchObject({ ...c.program, __provider: r.sdk().__provider, resourceUrn: r.urn, deleteBeforeReplace: true });
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.createWrites);
  r.entry = { id: made.id, inputs: checked.inputs, outputs: made.outs };
  // The next run with the same program plans nothing.
  const next = await r.run();
  const again = await next.check(r.live.inputs, r.sdk());
  expect(await next.diff(made.id, made.outs, again.inputs)).toEqual(NO_CHANGE);
};

/** Updates in place with the platform's own operation alone, then plans nothing. */
const updatesInPlace: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.update.patch };
  const run = await r.run();
  const checked = await run.check(r.live.inputs, r.sdk());
  expect(checked.failures).toEqual([]);
  expect(await run.diff(r.live.id, r.live.outputs, checked.inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  const since = await auditSeq(plane.t);
  const updated = await run.update(r.live.id, r.live.outputs, checked.inputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.update.writes);
  expect(updated.outs).toMatchObject({ ...c.update.patch, __provider: r.sdk().__provider });
  r.entry = { ...r.live, inputs: checked.inputs, outputs: updated.outs! };
  const next = await r.run();
  expect(await next.diff(r.live.id, r.live.outputs, (await next.check(r.live.inputs, r.sdk())).inputs)).toEqual(NO_CHANGE);
};

/** Refreshes the live object with reads alone, keeping the state as it was. */
const refreshes: Step = async (r, c, plane) => {
  const run = await r.run();
  const since = await auditSeq(plane.t);
  const read = await run.read(r.live.id, r.live.outputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
  expect(read.id).toBe(r.live.id);
  expect(read.props).toEqual(r.live.outputs);
};

/** Replaces creating first when the program sets deleteBeforeReplace: false (the new object gets another identity). */
const replacesCreatingFirst: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.replace };
  const run = await r.run();
  const checked = await run.check(r.live.inputs, r.sdk(false));
  const planned = await run.diff(r.live.id, r.live.outputs, checked.inputs);
  expect(planned).toMatchObject({ changes: true, deleteBeforeReplace: false });
  expect(planned.replaces).toEqual(expect.arrayContaining(Object.keys(c.replace)));
  const inputs = await recheck(run, r, false);
  const since = await auditSeq(plane.t);
  const made = await run.create(inputs);
  expect(await run.delete(r.live.id, r.live.outputs)).toBeUndefined();
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.createWrites, ...c.deleteWrites]);
  expect(made.id).not.toBe(r.live.id);
  r.entry = { id: made.id, inputs, outputs: made.outs };
};

/** Replaces deleting first, the SDK's default order. */
const replacesDeletingFirst: Step = async (r, c, plane) => {
  r.program = { ...r.program, ...c.replaceAgain };
  const run = await r.run();
  const checked = await run.check(r.live.inputs, r.sdk(true));
  expect(await run.diff(r.live.id, r.live.outputs, checked.inputs)).toMatchObject({ changes: true, deleteBeforeReplace: true });
  const inputs = await recheck(run, r, true);
  const since = await auditSeq(plane.t);
  expect(await run.delete(r.live.id, r.live.outputs)).toBeUndefined();
  const made = await run.create(inputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.deleteWrites, ...c.createWrites]);
  r.entry = { id: made.id, inputs, outputs: made.outs };
};

/** Refuses a bad input in check, naming the field, the value and what is allowed, with no platform call. */
const refusesBadInput: Step = async (r, c, plane) => {
  const run = await r.run();
  const since = await auditSeq(plane.t);
  const news = { ...r.sdk(), [c.bad.field]: c.bad.value };
  expect(await run.check(r.live.inputs, news)).toEqual({ inputs: news, failures: [{ property: c.bad.names.dynamic, reason: `${c.bad.names.dynamic} ${c.bad.reason}` }] });
  expect(await platformCalls(plane.t, c.api, since)).toEqual([]);
};

/** Deletes the object with the platform's delete alone (pulumi destroy). */
const deletes: Step = async (r, c, plane) => {
  const run = await r.run();
  const since = await auditSeq(plane.t);
  expect(await run.delete(r.live.id, r.live.outputs)).toBeUndefined();
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.deleteWrites);
};

/** Answers a blank id when refreshing an object that no longer exists, with no write. */
const readsVanished: Step = async (r, c, plane) => {
  const run = await r.run();
  const since = await auditSeq(plane.t);
  expect(await run.read(r.live.id, r.live.outputs)).toEqual({ id: "", props: {} });
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
};

/** Takes over state the native plugin wrote (Pulumi names, no __provider) by an update that writes nothing to the platform. */
const takesOverNativeState: Step = async (r, c, plane) => {
  // The same resource first served by the plugin (the README's move of a class, by alias).
  const { provider: plugin, hooks } = nativePlugin("0.0.0", async () => "{}");
  hooks.configure({ getVariablesMap: () => new Map(), getArgs: () => ({ toJavaScript: () => plane.settings }) });
  const nativeUrn = `urn:pulumi:${STACK}::${PROJECT}::clusterform:${c.type}::${r.name}`;
  r.program = { ...c.program };
  const nativeChecked = await plugin.check!(nativeUrn, {}, pulumiNamed(r.program));
  expect(nativeChecked.failures ?? []).toEqual([]);
  const nativeMade = await plugin.create!(nativeUrn, nativeChecked.inputs!);
  expect(nativeMade.outs).not.toHaveProperty("__provider");

  const run = await r.run();
  const since = await auditSeq(plane.t);
  const checked = await run.check(nativeChecked.inputs!, r.sdk());
  expect(checked.failures).toEqual([]);
  expect(await run.diff(nativeMade.id, nativeMade.outs!, checked.inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  const updated = await run.update(nativeMade.id, nativeMade.outs!, checked.inputs);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
  expect(updated.outs).toMatchObject({ ...c.program, __provider: r.sdk().__provider, owner: ownerMarker(PROJECT, STACK, r.name), resourceUrn: r.urn });
  const next = await r.run();
  expect(await next.diff(nativeMade.id, updated.outs!, (await next.check(checked.inputs, r.sdk())).inputs)).toEqual(NO_CHANGE);

  const destroy = await r.run();
  const before = await auditSeq(plane.t);
  expect(await destroy.delete(nativeMade.id, updated.outs!)).toBeUndefined();
  expect(await platformWrites(plane.t, c.api, before)).toEqual(c.deleteWrites);
};

describe.concurrent("the dynamic provider driven as Pulumi's dynamic host drives it", () => {
  describe("the life of one resource", () => {
    each("life", "creates the object with one check and one create, keeping the hidden inputs in the state", creates);
    each("life", "updates in place with the platform's own operation alone, then plans nothing", updatesInPlace);
    each("life", "refreshes the live object with reads alone, keeping the state as it was", refreshes);
    each("life", "refuses a bad input in check, naming the field, the value and what is allowed, with no platform call", refusesBadInput);
    each("life", "deletes the object with the platform's delete alone (pulumi destroy)", deletes);
    each("life", "answers a blank id when refreshing an object that no longer exists, with no write", readsVanished);
    each("life", "takes over state the native plugin wrote (Pulumi names, no __provider) by an update that writes nothing to the platform", takesOverNativeState);
  });

  describe("the replacements of another resource", () => {
    each("replacing", "creates the object with one check and one create, keeping the hidden inputs in the state", creates);
    each("replacing", "replaces creating first when the program sets deleteBeforeReplace: false (the new object gets another identity)", replacesCreatingFirst);
    each("replacing", "replaces deleting first, the SDK's default order", replacesDeletingFirst);
    each("replacing", "deletes the object with the platform's delete alone (pulumi destroy)", deletes);
  });
});
