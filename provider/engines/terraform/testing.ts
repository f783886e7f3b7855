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
import { type CtyType, decodeMsgpack, encodeMsgpack, hasUnknown, type TfValue, typeOf } from "./codec";
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

/** What tofu checks of a plan: every attribute the configuration sets keeps its value, and a non-computed one is exactly the configuration's. */
export function expectValidPlan(schema: TypeSchema, config: TfObject, planned: TfObject): void {
  for (const [name, a] of schema.attributes) {
    if (!a.computed || config[name] !== null) expect(planned[name], `planned ${name}`).toEqual(config[name]);
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
