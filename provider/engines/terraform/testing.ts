import { isDeepStrictEqual } from "node:util";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { expect } from "vitest";
import {
  type Diagnostic,
  Diagnostic_Severity,
  Provider,
  type Schema_Attribute,
  type Schema_Block,
  Schema_Object_NestingMode,
} from "../../../proto/gen/tfplugin6/tfplugin6_pb";
import { loadKinds } from "../../cli/plan/planners";
import { planChange } from "../../cli/plan/plan-change";
import { readTofuPlan } from "../../cli/plan/tofu-plan-json";
import type { Kind } from "../../core/definition/kind";
import { fromEngineNames, toEngineNames } from "../../core/definition/names";
import { type KindType, kindOf } from "../../kinds";
import { type AdapterPlane, type Applied, type DrivenResource, type EngineDriver, InOrder, type Previewed, type Program, tofuReplaceOrder } from "../testing";
import { type CtyType, decodeMsgpack, encodeMsgpack, hasUnknown, type TfValue, typeOf, UNKNOWN_VALUE } from "./codec";
import { terraformTypeName } from "./kind-modules";
import { providerService } from "./provider-service";
import { Stopper } from "./stopper";

/*
 * The provider's tfplugin6 service mounted on an in-memory Connect router and called with a typed
 * client the way OpenTofu calls it (test helper, not built into the package): values built from the
 * GetProviderSchema answer as tofu builds them (every attribute present, null when unset; the
 * proposed new state from the prior state and the configuration), encoded with codec.ts, and the
 * answers held to the rules tofu itself enforces (a plan keeps the configuration's values; an apply
 * answers what the plan promised).
 */

type TfObject = Record<string, TfValue>;
type Props = Record<string, unknown>;

/** One resource type's schema as tofu reads it from GetProviderSchema. */
export interface TypeSchema {
  /** The object type values of this resource cross the protocol with. */
  objectType: CtyType;
  /** Top-level attributes and single nested blocks (`timeouts`), by name. */
  attributes: Map<string, { computed: boolean }>;
}

/** A provider process's service as tofu calls it: the client, its Stopper, and the schema it answered. */
export interface TofuProvider {
  client: Client<typeof Provider>;
  stopper: Stopper;
  schemaOf(typeName: string): TypeSchema;
  /** A resource type's schema version, which tofu records beside each object (`schema_version`) and sends back with its state. */
  versionOf(typeName: string): bigint;
  /** A data source's schema as tofu reads it. */
  dataSchemaOf(typeName: string): TypeSchema;
}

const decoder = new TextDecoder();

function attributeType(a: Schema_Attribute): CtyType {
  if (!a.nestedType) return JSON.parse(decoder.decode(a.type)) as CtyType;
  const object: CtyType = ["object", Object.fromEntries(a.nestedType.attributes.map((n) => [n.name, attributeType(n)]))];
  switch (a.nestedType.nesting) {
    case Schema_Object_NestingMode.LIST:
      return ["list", object];
    case Schema_Object_NestingMode.SET:
      return ["set", object];
    case Schema_Object_NestingMode.MAP:
      return ["map", object];
    default:
      return object;
  }
}

function blockSchema(block: Schema_Block): TypeSchema {
  const attributes = new Map<string, { computed: boolean }>();
  const types: Record<string, CtyType> = {};
  for (const a of block.attributes) {
    attributes.set(a.name, { computed: a.computed });
    types[a.name] = attributeType(a);
  }
  for (const b of block.blockTypes) {
    const nested = blockSchema(b.block!);
    attributes.set(b.typeName, { computed: false });
    types[b.typeName] = nested.objectType;
  }
  return { objectType: ["object", types], attributes };
}

/**
 * A new provider process (tofu starts one per command): its service on an in-memory router, asked
 * for its schema, and configured with the provider block `config` (attribute names, unset ones null).
 */
export async function startTofuProvider(config: Record<string, string>): Promise<TofuProvider> {
  const stopper = new Stopper();
  const transport = createRouterTransport(({ service }) => {
    service(Provider, providerService(stopper));
  });
  const client = createClient(Provider, transport);
  const answer = await client.getProviderSchema({});
  expect(answer.diagnostics).toEqual([]);
  const providerBlock = blockSchema(answer.provider!.block!);
  const types = new Map(Object.entries(answer.resourceSchemas).map(([name, s]) => [name, blockSchema(s.block!)]));
  const dataTypes = new Map(Object.entries(answer.dataSourceSchemas).map(([name, s]) => [name, blockSchema(s.block!)]));
  const block = Object.fromEntries([...providerBlock.attributes.keys()].map((name) => [name, config[name] ?? null]));
  const configured = await client.configureProvider({ config: { msgpack: encodeMsgpack(block, providerBlock.objectType) } });
  expect(configured.diagnostics).toEqual([]);
  return {
    client,
    stopper,
    versionOf(typeName) {
      return answer.resourceSchemas[typeName]?.version ?? 0n;
    },
    schemaOf(typeName) {
      const found = types.get(typeName);
      if (!found) throw new Error(`test harness: the provider's schema has no resource type ${typeName}`);
      return found;
    },
    dataSchemaOf(typeName) {
      const found = dataTypes.get(typeName);
      if (!found) throw new Error(`test harness: the provider's schema has no data source ${typeName}`);
      return found;
    },
  };
}

/** A configuration object as tofu sends it: every attribute of the schema, nested ones too, null where unset. */
export function configOf(schema: TypeSchema, values: TfObject): TfObject {
  const unknown = Object.keys(values).filter((k) => !schema.attributes.has(k));
  if (unknown.length > 0) throw new Error(`test harness: no attribute ${unknown.join(", ")} in the schema`);
  return complete(values, schema.objectType) as TfObject;
}

/** `value` with every attribute its object types have, null where absent. */
function complete(value: TfValue, type: CtyType): TfValue {
  if (value === null || typeof type === "string") return value;
  const [kind, spec] = type;
  if (kind === "list" || kind === "set") return (value as TfValue[]).map((v) => complete(v, spec as CtyType));
  if (kind === "map") return Object.fromEntries(Object.entries(value as TfObject).map(([k, v]) => [k, complete(v, spec as CtyType)]));
  if (kind !== "object") return value;
  const attrs = spec as Record<string, CtyType>;
  return Object.fromEntries(Object.keys(attrs).map((k) => [k, complete((value as TfObject)[k] ?? null, attrs[k])]));
}

/** Tofu's proposed new state: the configuration, with the prior value of each computed attribute the configuration leaves unset. */
export function proposedNew(schema: TypeSchema, prior: TfObject | null, config: TfObject): TfObject {
  return Object.fromEntries([...schema.attributes].map(([name, a]) => [name, a.computed && config[name] === null ? (prior?.[name] ?? null) : config[name]]));
}

/** Msgpack of a value of the resource type (null included). */
export function dv(schema: TypeSchema, value: TfObject | null): { msgpack: Uint8Array } {
  return { msgpack: encodeMsgpack(value, schema.objectType) };
}

/** A value of the resource type back from an answer. */
export function decodedValue(schema: TypeSchema, value: { msgpack: Uint8Array; json: Uint8Array } | undefined): TfObject | null {
  if (!value || value.msgpack.length === 0) return null;
  return decodeMsgpack(value.msgpack, schema.objectType) as TfObject | null;
}

/** The state JSON tofu stores and hands to UpgradeResourceState (a dynamic value as `{value, type}`). */
export function stateJson(value: TfValue, type: CtyType): unknown {
  if (value === null) return null;
  if (type === "dynamic") return { value, type: typeOf(value) };
  if (typeof type === "string") return value;
  const [kind, spec] = type;
  if (kind === "list" || kind === "set") return (value as TfValue[]).map((v) => stateJson(v, spec as CtyType));
  if (kind === "map") return Object.fromEntries(Object.entries(value as TfObject).map(([k, v]) => [k, stateJson(v, spec as CtyType)]));
  const attrs = spec as Record<string, CtyType>;
  return Object.fromEntries(Object.keys(attrs).map((k) => [k, stateJson((value as TfObject)[k] ?? null, attrs[k])]));
}

/**
 * What tofu checks of a plan: every attribute the configuration sets keeps its value (or the prior
 * state's, which tofu takes as equivalent), and a non-computed one is exactly the configuration's.
 */
export function expectValidPlan(schema: TypeSchema, config: TfObject, planned: TfObject, prior: TfObject | null = null): void {
  for (const [name, a] of schema.attributes) {
    // tofu's objchange also takes the prior value of an attribute both the prior state and the
    // configuration set (the provider holds the two equivalent: a size the platform owns).
    const keepsPrior = prior !== null && prior[name] !== null && config[name] !== null && isDeepStrictEqual(planned[name], prior[name]);
    if ((!a.computed || config[name] !== null) && !keepsPrior) expect(planned[name], `planned ${name}`).toEqual(config[name]);
  }
}

/** What tofu checks of an apply: every value the plan knew is the value the new state holds. */
export function expectConsistentApply(planned: TfObject, applied: TfObject): void {
  for (const [name, value] of Object.entries(planned)) {
    if (!hasUnknown(value)) expect(applied[name], `applied ${name}`).toEqual(value);
  }
}

/** Error diagnostics of an answer, as `{ summary, detail, attribute }`. */
export function errorsOf(diagnostics: Diagnostic[]): { summary: string; detail: string; attribute?: string }[] {
  return diagnostics
    .filter((d) => d.severity === Diagnostic_Severity.ERROR)
    .map((d) => {
      const step = d.attribute?.steps[0]?.selector;
      return { summary: d.summary, detail: d.detail, ...(step?.case === "attributeName" ? { attribute: step.value } : {}) };
    });
}

/** The `provider "clusterform"` block that reaches a plane. */
export function providerConfigOf(plane: AdapterPlane): Record<string, string> {
  return Object.fromEntries(Object.entries(plane.settings).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
}

/** `value` without its null attributes (HCL's unset ones), as the definitions hold values. */
function withoutNulls(value: TfValue): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/** A planned value as `tofu show -json` writes it: the known values (unknown ones null), and `after_unknown`. */
function planJson(value: TfValue): { known: unknown; unknown: unknown } {
  if (value === UNKNOWN_VALUE) return { known: null, unknown: true };
  if (Array.isArray(value)) {
    const items = value.map(planJson);
    return { known: items.map((i) => i.known), unknown: items.map((i) => i.unknown) };
  }
  if (typeof value !== "object" || value === null) return { known: value, unknown: false };
  const entries = Object.entries(value).map(([k, v]) => [k, planJson(v)] as const);
  return { known: Object.fromEntries(entries.map(([k, v]) => [k, v.known])), unknown: Object.fromEntries(entries.map(([k, v]) => [k, v.unknown])) };
}

/** A resource block of one kind and the state tofu keeps for it. */
export class TofuResource implements DrivenResource {
  readonly engine = "terraform";
  readonly typeName: string;
  /** The block's arguments now (definition keys). */
  program: Props = {};
  state: TfObject | null = null;
  private: Uint8Array = new Uint8Array();
  /** The steps of this block's life, in order beside other blocks' (lifecycle tests). */
  readonly steps = new InOrder();
  /** The warnings of the last plan, by summary (the errors fail it). */
  planWarnings: string[] = [];
  private kind: Kind | undefined;

  constructor(
    readonly type: KindType,
    readonly name: string,
    private readonly planeOf: () => AdapterPlane,
  ) {
    this.typeName = terraformTypeName(type);
  }

  get live(): TfObject {
    if (!this.state) throw new Error(`${this.type} ${this.name}: no state (the create step did not record one)`);
    return this.state;
  }

  get outputs(): Props {
    return this.state && this.kind ? fromEngineNames(this.kind, withoutNulls(this.state) as Props, "terraform") : {};
  }

  /** Definition-key values as an HCL configuration writes them. */
  async hcl(props: Props): Promise<TfObject> {
    this.kind ??= await kindOf(this.type);
    return toEngineNames(this.kind, props, "terraform") as TfObject;
  }

  /** A provider process for one tofu command, and this block's schema as it answered it. */
  async process(): Promise<{ p: TofuProvider; schema: TypeSchema; config: TfObject }> {
    const p = await startTofuProvider(providerConfigOf(this.planeOf()));
    const schema = p.schemaOf(this.typeName);
    return { p, schema, config: configOf(schema, await this.hcl(this.program)) };
  }

  /** `tofu apply -refresh-only`: the state upgraded and read, what changed outside the configuration taken in. */
  async refresh(): Promise<void> {
    const { p, schema } = await this.process();
    const raw = new TextEncoder().encode(JSON.stringify(stateJson(this.live, schema.objectType)));
    const upgraded = await p.client.upgradeResourceState({ typeName: this.typeName, version: p.versionOf(this.typeName), rawState: { json: raw } });
    expect(upgraded.diagnostics).toEqual([]);
    const read = await p.client.readResource({ typeName: this.typeName, currentState: upgraded.upgradedState, private: this.private });
    expect(read.diagnostics).toEqual([]);
    const state = decodedValue(schema, read.newState);
    expect(state, "the object is still there").not.toBeNull();
    this.state = state;
    this.private = read.private;
  }

  /** `tofu plan`'s calls for this block: refresh (upgrade, read), then the plan. */
  async plan(): Promise<{ planned: TfObject; plannedPrivate: Uint8Array; requiresReplace: string[]; config: TfObject; schema: TypeSchema; prior: TfObject | null }> {
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
      // The refresh finds no drift in what the configuration sets (outputs such as a pool's usage may move on).
      const set = Object.keys(config).filter((k) => config[k] !== null);
      const pick = (o: TfObject | null) => Object.fromEntries(set.map((k) => [k, o?.[k]]));
      expect(pick(prior)).toEqual(pick(this.state));
    }
    const res = await p.client.planResourceChange({
      typeName: this.typeName,
      priorState: dv(schema, prior),
      proposedNewState: dv(schema, proposedNew(schema, prior, config)),
      config: dv(schema, config),
      priorPrivate: this.private,
    });
    throwRefusal(res.diagnostics);
    // Warnings are tofu's to print beside the plan (a clamped size); the test reads them.
    this.planWarnings = res.diagnostics.map((d) => d.summary);
    const planned = decodedValue(schema, res.plannedState)!;
    expectValidPlan(schema, config, planned, prior);
    const requiresReplace = res.requiresReplace.map((path) => String(path.steps[0]?.selector.value));
    return { planned, plannedPrivate: res.plannedPrivate, requiresReplace, config, schema, prior };
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

  /** Plans the program (`tofu plan`) and carries it out (`tofu apply`), a replacement in the configuration's order. */
  async apply(program: Program): Promise<Applied> {
    const { previewed, plan } = await this.previewOf(program);
    const steps: Applied["steps"] = [];
    if (previewed.op === "create" || previewed.op === "update") {
      await this.applyPlanned(plan, plan.prior);
      steps.push(previewed.op);
    } else if (previewed.op === "replace") {
      const old = { state: this.live, private: this.private };
      const create = await this.planCreate();
      if (previewed.order === "delete-first") await this.destroyState(old.state, old.private);
      await this.applyPlanned(create, null);
      if (previewed.order === "create-first") await this.destroyState(old.state, old.private);
      steps.push(...(previewed.order === "delete-first" ? (["delete", "create"] as const) : (["create", "delete"] as const)));
    }
    return { ...previewed, steps };
  }

  /** `tofu apply` of a planned create or update (prior: the state it changes). */
  async applyPlanned(plan: { planned: TfObject; plannedPrivate: Uint8Array; config: TfObject }, prior: TfObject | null): Promise<void> {
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
  async destroyState(state: TfObject, privateState: Uint8Array): Promise<void> {
    const { p, schema } = await this.process();
    const res = await p.client.applyResourceChange({ typeName: this.typeName, priorState: dv(schema, state), plannedState: dv(schema, null), config: dv(schema, null), plannedPrivate: privateState });
    // Warnings (an abandoned object) are tofu's to print; an error is a failed destroy.
    expect(errorsOf(res.diagnostics)).toEqual([]);
    expect(decodedValue(schema, res.newState)).toBeNull();
  }

  /** A plan of the unchanged configuration plans nothing: the planned state is the state. */
  async expectNoChange(): Promise<void> {
    const { planned, requiresReplace } = await this.plan();
    expect(requiresReplace).toEqual([]);
    expect(planned).toEqual(this.live);
  }

  /** `tofu plan` of the program, and the change as `tofu show -json` of the saved plan gives it to `clusterform plan`. */
  private async previewOf(program: Program): Promise<{ previewed: Previewed; plan: Awaited<ReturnType<TofuResource["plan"]>> }> {
    await loadKinds();
    this.program = program.inputs;
    const plan = await this.plan();
    const prior = plan.prior;
    let op: Previewed["op"];
    if (!prior) op = "create";
    else if (plan.requiresReplace.length > 0) op = "replace";
    else op = isDeepStrictEqual(plan.planned, prior) ? "same" : "update";
    const order = op === "replace" ? tofuReplaceOrder(program) : undefined;
    if (op === "same") return { previewed: { op, operations: [] }, plan };
    const actions = { create: ["create"], update: ["update"], replace: order === "create-first" ? ["create", "delete"] : ["delete", "create"] }[op];
    const after = planJson(plan.planned);
    const doc = {
      format_version: "1.2",
      resource_changes: [{ address: `${this.typeName}.${this.name}`, mode: "managed", type: this.typeName, name: this.name, change: { actions, before: prior, after: after.known, after_unknown: after.unknown } }],
    };
    const read = readTofuPlan(doc);
    expect(read.errors).toEqual([]);
    const operations = planChange(read.changes[0])?.operations ?? [];
    return { previewed: { op, order, operations }, plan };
  }

  async preview(program: Program): Promise<Previewed> {
    return (await this.previewOf(program)).previewed;
  }

  /** `tofu destroy`: its plan (PlanResourceChange to a null state), which may refuse it, then the apply's delete. */
  async destroy(): Promise<void> {
    const { p, schema } = await this.process();
    const planned = await p.client.planResourceChange({
      typeName: this.typeName,
      priorState: dv(schema, this.live),
      proposedNewState: dv(schema, null),
      config: dv(schema, null),
      priorPrivate: this.private,
    });
    throwRefusal(planned.diagnostics);
    expect(decodedValue(schema, planned.plannedState)).toBeNull();
    await this.destroyState(this.live, this.private);
    this.state = null;
  }
}

/** A plan's refusal (its error diagnostics) thrown with their text, as tofu prints them. */
function throwRefusal(diagnostics: Diagnostic[]): void {
  const refused = errorsOf(diagnostics);
  if (refused.length > 0) throw new Error(refused.map((d) => d.summary).join("\n"));
}

/** The tfplugin6 service as OpenTofu drives it. */
export const TOFU_DRIVER: EngineDriver = {
  engine: "terraform",
  open: async (type, name, _stack, plane) => new TofuResource(type, name, () => plane),
};
