import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terraformTypeName } from "./kind-modules";
import { type AdapterPlane, auditSeq, InOrder, KIND_CASES, type KindCase, platformCalls, platformWrites, startAdapterPlane } from "../testing";
import type { TfValue } from "./codec";
import {
  configOf,
  dv,
  errorsOf,
  expectConsistentApply,
  expectValidPlan,
  proposedNew,
  providerConfigOf,
  startTofuProvider,
  stateJson,
  type TofuProvider,
  type TypeSchema,
  decodedValue,
} from "./testing";

// The provider's tfplugin6 service on an in-memory Connect router, called as OpenTofu calls it:
// each command a new provider process (plan and apply apart), values built from its schema as tofu
// builds them, answers held to tofu's own checks, against the local control plane: the life of one
// kind of every platform, and the replacements of another block of each kind on a plane of its own,
// in both orders as tofu runs them (it decides the order itself: delete first, or create first under
// create_before_destroy). Kinds and the two blocks run side by side; the steps of one block run in
// order (InOrder).

type Props = Record<string, unknown>;
type TfObject = Record<string, TfValue>;

/** The two blocks of each kind: one lives its whole life, the other is replaced; each on its own plane. */
type Chain = "life" | "replacing";
const planes = {} as Record<Chain, AdapterPlane>;
beforeAll(async () => {
  [planes.life, planes.replacing] = await Promise.all([startAdapterPlane(), startAdapterPlane()]);
});
afterAll(async () => {
  await Promise.all(Object.values(planes).map((p) => p.close()));
});

/** HCL names of the fields these tests set: snake_case, and the attributes named otherwise. */
const HCL_NAMES: Readonly<Record<string, string>> = { count: "node_count" };
/** Fields whose values are objects of attributes (their keys renamed too); maps and JSON keep their keys. */
const NESTED = new Set(["controlPlane"]);

/** Definition-key values as an HCL configuration writes them. */
function hcl(props: Props): TfObject {
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [HCL_NAMES[k] ?? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), (NESTED.has(k) ? hcl(v as Props) : v) as TfValue]),
  );
}

/** A resource block of one kind and the state tofu keeps for it. */
class Block {
  readonly typeName: string;
  program: Props;
  state: TfObject | null = null;
  private: Uint8Array = new Uint8Array();
  readonly steps = new InOrder();

  constructor(
    readonly c: KindCase,
    readonly chain: Chain,
  ) {
    this.typeName = terraformTypeName(c.type);
    this.program = { ...c.program, ...(c.name ? { name: c.name } : {}) };
  }

  get live(): TfObject {
    if (!this.state) throw new Error(`${this.c.type}: no state (the create step did not record one)`);
    return this.state;
  }

  /** A provider process for one tofu command, and this block's schema as it answered it. */
  async process(): Promise<{ p: TofuProvider; schema: TypeSchema; config: TfObject }> {
    const p = await startTofuProvider(providerConfigOf(planes[this.chain]));
    const schema = p.schemaOf(this.typeName);
    return { p, schema, config: configOf(schema, hcl(this.program)) };
  }

  /** `tofu plan`'s calls for this block: refresh (upgrade, read), then the plan. */
  async plan(): Promise<{ planned: TfObject; plannedPrivate: Uint8Array; requiresReplace: string[]; config: TfObject; schema: TypeSchema }> {
    const { p, schema, config } = await this.process();
    expect((await p.client.validateResourceConfig({ typeName: this.typeName, config: dv(schema, config) })).diagnostics).toEqual([]);
    let prior: TfObject | null = null;
    if (this.state) {
      const raw = new TextEncoder().encode(JSON.stringify(stateJson(this.state, schema.objectType)));
      const upgraded = await p.client.upgradeResourceState({ typeName: this.typeName, version: p.versionOf(this.typeName), rawState: { json: raw } });
      expect(upgraded.diagnostics).toEqual([]);
      const read = await p.client.readResource({ typeName: this.typeName, currentState: upgraded.upgradedState, private: this.private });
      expect(read.diagnostics).toEqual([]);
      prior = decodedValue(schema, read.newState);
      expect(prior).toEqual(this.state);
    }
    const res = await p.client.planResourceChange({
      typeName: this.typeName,
      priorState: dv(schema, prior),
      proposedNewState: dv(schema, proposedNew(schema, prior, config)),
      config: dv(schema, config),
      priorPrivate: this.private,
    });
    expect(res.diagnostics).toEqual([]);
    const planned = decodedValue(schema, res.plannedState)!;
    expectValidPlan(schema, config, planned);
    const requiresReplace = res.requiresReplace.map((path) => String(path.steps[0]?.selector.value));
    return { planned, plannedPrivate: res.plannedPrivate, requiresReplace, config, schema };
  }

  /** The create half of a replacement as tofu plans it: the new object, with no prior state. */
  async planCreate(): Promise<{ planned: TfObject; plannedPrivate: Uint8Array; config: TfObject }> {
    const { p, schema, config } = await this.process();
    const res = await p.client.planResourceChange({ typeName: this.typeName, priorState: dv(schema, null), proposedNewState: dv(schema, proposedNew(schema, null, config)), config: dv(schema, config) });
    expect(res.diagnostics).toEqual([]);
    const planned = decodedValue(schema, res.plannedState)!;
    expectValidPlan(schema, config, planned);
    return { planned, plannedPrivate: res.plannedPrivate, config };
  }

  /** `tofu apply` of a planned create or update (prior: the state it changes). */
  async apply(plan: { planned: TfObject; plannedPrivate: Uint8Array; config: TfObject }, prior: TfObject | null): Promise<void> {
    const { p, schema } = await this.process();
    const res = await p.client.applyResourceChange({
      typeName: this.typeName,
      priorState: dv(schema, prior),
      plannedState: dv(schema, plan.planned),
      config: dv(schema, plan.config),
      plannedPrivate: plan.plannedPrivate,
    });
    expect(errorsOf(res.diagnostics)).toEqual([]);
    const applied = decodedValue(schema, res.newState)!;
    expectConsistentApply(plan.planned, applied);
    this.state = applied;
    this.private = res.private;
  }

  /** `tofu apply`'s delete of an object (its state and private state). */
  async destroy(state: TfObject, privateState: Uint8Array): Promise<void> {
    const { p, schema } = await this.process();
    const res = await p.client.applyResourceChange({ typeName: this.typeName, priorState: dv(schema, state), plannedState: dv(schema, null), config: dv(schema, null), plannedPrivate: privateState });
    expect(res.diagnostics).toEqual([]);
    expect(decodedValue(schema, res.newState)).toBeNull();
  }

  /** A plan of the unchanged configuration plans nothing: the planned state is the state. */
  async expectNoChange(): Promise<void> {
    const { planned, requiresReplace } = await this.plan();
    expect(requiresReplace).toEqual([]);
    expect(planned).toEqual(this.live);
  }
}

const blocks = new Map(KIND_CASES.flatMap((c) => (["life", "replacing"] as const).map((chain) => [`${chain} ${c.type}`, new Block(c, chain)])));
type Step = (b: Block, c: KindCase, plane: AdapterPlane) => Promise<void>;
const each = (chain: Chain, name: string, fn: Step) =>
  it.concurrent.for(KIND_CASES)(`$type: ${name}`, async (c) => {
    const b = blocks.get(`${chain} ${c.type}`)!;
    await b.steps.step(name, () => fn(b, c, planes[chain]));
  });
const hclName = (field: string) => Object.keys(hcl({ [field]: null }))[0];

/** Creates with validate, plan and apply, the plan's promises kept, and the next plan is empty. */
const creates: Step = async (b, c, plane) => {
  const plan = await b.plan();
  const since = await auditSeq(plane.t);
  await b.apply(plan, null);
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.createWrites);
  expect(b.live.id).toEqual(expect.any(String));
  await b.expectNoChange();
};

/** Updates in place with the platform's own operation alone, then plans nothing. */
const updatesInPlace: Step = async (b, c, plane) => {
  b.program = { ...b.program, ...c.update.patch };
  const plan = await b.plan();
  expect(plan.requiresReplace).toEqual([]);
  const since = await auditSeq(plane.t);
  await b.apply(plan, b.live);
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.update.writes);
  await b.expectNoChange();
};

/** Imports the live object by id with reads alone; the configuration's first apply then writes nothing, and the next plan is empty. */
const imports: Step = async (b, c, plane) => {
  const imported = new Block(c, b.chain);
  imported.program = b.program;
  const { p, schema } = await imported.process();
  const since = await auditSeq(plane.t);
  const answer = await p.client.importResourceState({ typeName: b.typeName, id: String(b.live.id) });
  expect(answer.diagnostics).toEqual([]);
  const [resource] = answer.importedResources;
  const read = await p.client.readResource({ typeName: b.typeName, currentState: resource.state, private: resource.private });
  expect(read.diagnostics).toEqual([]);
  imported.state = decodedValue(schema, read.newState);
  imported.private = read.private;
  expect(imported.live.id).toBe(b.live.id);
  // What the platform cannot report (a cma-ssh cluster's version) is the configuration's: an update in place that writes nothing.
  const plan = await imported.plan();
  expect(plan.requiresReplace).toEqual([]);
  await imported.apply(plan, imported.live);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
  await imported.expectNoChange();
};

/** Replaces creating first as tofu runs create_before_destroy: the new object, then the old one's delete. */
const replacesCreatingFirst: Step = async (b, c, plane) => {
  const old = { state: b.live, private: b.private };
  b.program = { ...b.program, ...(c.tofuCreateFirst ?? c.replace) };
  const { requiresReplace } = await b.plan();
  expect(requiresReplace).toEqual(expect.arrayContaining(Object.keys(hcl(c.replace))));
  const create = await b.planCreate();
  const since = await auditSeq(plane.t);
  await b.apply(create, null);
  await b.destroy(old.state, old.private);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.createWrites, ...c.deleteWrites]);
  expect(b.live.id).not.toBe(old.state.id);
  await b.expectNoChange();
};

/** Replaces deleting first, tofu's default order: the old object's delete, then the new object. */
const replacesDeletingFirst: Step = async (b, c, plane) => {
  const old = { state: b.live, private: b.private };
  b.program = { ...b.program, ...c.replaceAgain };
  const { requiresReplace } = await b.plan();
  expect(requiresReplace).toEqual(expect.arrayContaining(Object.keys(hcl(c.replaceAgain))));
  const create = await b.planCreate();
  const since = await auditSeq(plane.t);
  await b.destroy(old.state, old.private);
  await b.apply(create, null);
  expect(await platformWrites(plane.t, c.api, since)).toEqual([...c.deleteWrites, ...c.createWrites]);
  await b.expectNoChange();
};

/** Refuses a bad input in validation and in plan, naming the HCL attribute, the value and what is allowed, with no platform call. */
const refusesBadInput: Step = async (b, c, plane) => {
  const { p, schema, config } = await b.process();
  const bad = { ...config, [hclName(c.bad.field)]: c.bad.value as TfValue };
  const tf = c.bad.names.terraform;
  const expected = [{ summary: `Invalid ${tf}`, detail: `${tf} ${c.bad.reason}`, attribute: tf }];
  const since = await auditSeq(plane.t);
  const validated = await p.client.validateResourceConfig({ typeName: b.typeName, config: dv(schema, bad) });
  expect(errorsOf(validated.diagnostics)).toEqual(expected);
  const planned = await p.client.planResourceChange({
    typeName: b.typeName,
    priorState: dv(schema, b.live),
    proposedNewState: dv(schema, proposedNew(schema, b.live, bad)),
    config: dv(schema, bad),
    priorPrivate: b.private,
  });
  expect(errorsOf(planned.diagnostics)).toEqual(expected);
  expect(await platformCalls(plane.t, c.api, since)).toEqual([]);
};

/** Destroys with the platform's delete alone. */
const destroys: Step = async (b, c, plane) => {
  const since = await auditSeq(plane.t);
  await b.destroy(b.live, b.private);
  expect(await platformWrites(plane.t, c.api, since)).toEqual(c.deleteWrites);
};

/** Reads an object deleted out of band as a null state, with no write. */
const readsVanished: Step = async (b, c, plane) => {
  const { p, schema } = await b.process();
  const since = await auditSeq(plane.t);
  const read = await p.client.readResource({ typeName: b.typeName, currentState: dv(schema, b.live), private: b.private });
  expect(read.diagnostics).toEqual([]);
  expect(decodedValue(schema, read.newState)).toBeNull();
  expect(await platformWrites(plane.t, c.api, since)).toEqual([]);
};

describe.concurrent("the tfplugin6 provider service driven as OpenTofu drives it", () => {
  describe("the life of one block", () => {
    each("life", "creates with validate, plan and apply, the plan's promises kept, and the next plan is empty", creates);
    each("life", "updates in place with the platform's own operation alone, then plans nothing", updatesInPlace);
    each("life", "imports the live object by id with reads alone; the configuration's first apply then writes nothing, and the next plan is empty", imports);
    each("life", "refuses a bad input in validation and in plan, naming the HCL attribute, the value and what is allowed, with no platform call", refusesBadInput);
    each("life", "destroys with the platform's delete alone", destroys);
    each("life", "reads an object deleted out of band as a null state, with no write", readsVanished);
  });

  describe("the replacements of another block", () => {
    each("replacing", "creates with validate, plan and apply, the plan's promises kept, and the next plan is empty", creates);
    each("replacing", "replaces creating first as tofu runs create_before_destroy: the new object, then the old one's delete", replacesCreatingFirst);
    each("replacing", "replaces deleting first, tofu's default order: the old object's delete, then the new object", replacesDeletingFirst);
    each("replacing", "destroys with the platform's delete alone", destroys);
  });
});
