import { decode, ExtData, encode } from "@msgpack/msgpack";

/**
 * Terraform values (cty) as they cross the plugin protocol, and their JavaScript form here.
 *
 * On the wire a value is msgpack shaped by its schema type: objects carry every attribute (nil for
 * null), an unknown value ("known after apply") is a msgpack extension, and an attribute of type
 * `dynamic` is a pair [its actual type as JSON bytes, its value]. In state JSON (the raw state of
 * UpgradeResourceState) a dynamic value is `{"value": ..., "type": ...}` instead.
 *
 * In JavaScript: null, strings, numbers, booleans, arrays, plain objects and {@link UNKNOWN_VALUE}.
 */

/** A cty type as Terraform writes it in JSON: `"string"`, `["list","string"]`, `["object",{...}]`. */
export type CtyType = string | [string, CtyType | Record<string, CtyType> | CtyType[]];

/** The JavaScript form of an unknown Terraform value. */
export const UNKNOWN_VALUE: unique symbol = Symbol("terraform unknown");

/** A decoded Terraform value. */
export type TfValue = null | string | number | boolean | typeof UNKNOWN_VALUE | TfValue[] | { [key: string]: TfValue };

/** True when `value` is unknown or holds an unknown anywhere inside. */
export function hasUnknown(value: TfValue): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (isObject(value)) return Object.values(value).some(hasUnknown);
  return false;
}

function isObject(value: unknown): value is { [key: string]: TfValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

const UTF8 = new TextDecoder();
const ENCODED_UNKNOWN = new ExtData(0, new Uint8Array(0));

/** Decodes msgpack bytes of a value of type `type`. */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): TfValue {
  if (bytes.length === 0) return null;
  return fromWire(decode(bytes, { useBigInt64: false }), type);
}

/** Encodes a value of type `type` as msgpack. */
export function encodeMsgpack(value: TfValue, type: CtyType): Uint8Array {
  return encode(toWire(value, type));
}

/** Decodes state JSON (as tofu stores it) of a value of type `type`. */
export function decodeStateJson(text: string | Uint8Array, type: CtyType): TfValue {
  const parsed = JSON.parse(typeof text === "string" ? text : UTF8.decode(text));
  return fromStateJson(parsed, type);
}

function fromWire(raw: unknown, type: CtyType): TfValue {
  if (raw instanceof ExtData) return UNKNOWN_VALUE;
  if (raw === null || raw === undefined) return null;
  if (type === "dynamic") {
    // [type JSON bytes, value]
    if (!Array.isArray(raw) || raw.length !== 2) throw new Error("terraform: a dynamic value must be a [type, value] pair");
    const actual = JSON.parse(typeof raw[0] === "string" ? raw[0] : UTF8.decode(raw[0] as Uint8Array)) as CtyType;
    return fromWire(raw[1], actual);
  }
  return walk(raw, type, fromWire);
}

function fromStateJson(raw: unknown, type: CtyType): TfValue {
  if (raw === null || raw === undefined) return null;
  if (type === "dynamic") {
    const wrapped = raw as { value: unknown; type: CtyType };
    return fromStateJson(wrapped.value, wrapped.type);
  }
  return walk(raw, type, fromStateJson);
}

/** Recurses into collections and objects by their type; primitives pass as they are. */
function walk(raw: unknown, type: CtyType, inner: (raw: unknown, type: CtyType) => TfValue): TfValue {
  if (typeof type === "string") return primitive(raw, type);
  const [kind, spec] = type;
  if (kind === "list" || kind === "set") return (raw as unknown[]).map((item) => inner(item, spec as CtyType));
  if (kind === "tuple") return (raw as unknown[]).map((item, i) => inner(item, (spec as CtyType[])[i]));
  const source = raw as Record<string, unknown>;
  if (kind === "map") return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, inner(v, spec as CtyType)]));
  const attrs = spec as Record<string, CtyType>;
  return Object.fromEntries(Object.keys(attrs).map((k) => [k, inner(source[k], attrs[k])]));
}

function primitive(raw: unknown, type: string): TfValue {
  // cty numbers may arrive as a decimal string when they do not fit a float64.
  if (type === "number" && typeof raw === "string") return Number(raw);
  if (type === "number" && typeof raw === "bigint") return Number(raw);
  return raw as TfValue;
}

function toWire(value: TfValue, type: CtyType): unknown {
  if (value === UNKNOWN_VALUE) return ENCODED_UNKNOWN;
  if (value === null) return null;
  if (type === "dynamic") {
    const actual = typeOf(value);
    return [new TextEncoder().encode(JSON.stringify(actual)), toWire(value, actual)];
  }
  if (typeof type === "string") return value;
  const [kind, spec] = type;
  if (kind === "list" || kind === "set") return (value as TfValue[]).map((item) => toWire(item, spec as CtyType));
  if (kind === "tuple") return (value as TfValue[]).map((item, i) => toWire(item, (spec as CtyType[])[i]));
  const source = value as Record<string, TfValue>;
  if (kind === "map") return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, toWire(v, spec as CtyType)]));
  const attrs = spec as Record<string, CtyType>;
  return Object.fromEntries(Object.keys(attrs).map((k) => [k, toWire(source[k] ?? null, attrs[k])]));
}

/**
 * The type HCL gives a literal of this shape: objects and tuples, as `{ a = 1 }` and `["x"]` are in
 * a configuration. Values of dynamic attributes are encoded with it, so that what a plan returns
 * keeps the type the configuration gave (tofu rejects a plan that changes a value's type).
 */
export function typeOf(value: TfValue): CtyType {
  if (value === null || value === UNKNOWN_VALUE) return "dynamic";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(typeOf)];
  return ["object", Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeOf(v)]))];
}
