import { randomUUID } from "node:crypto";
import type { Kind } from "../../core/definition/kind";
import { migratedFields, upgradeProps, withSchemaVersion } from "../../core/definition/migration";
import type { Holder } from "../../core/engine";
import { ownerMarker } from "../../core/naming";
import { sortKeys } from "../../core/sort-keys";
import { deepEqual } from "../../core/planner";
import { UNKNOWN } from "../../core/unknown";
import { decodeStateJson, hasUnknown, type TfValue, UNKNOWN_VALUE } from "./codec";
import { attributeName, type TfAttribute, type TfNode, type TfResourceType } from "./schema";

/** Handler properties: what the Pulumi dynamic provider would hold for the object (camelCase). */
export type Props = Record<string, unknown>;

type TfObject = Record<string, TfValue>;

/** A Terraform value in the handlers' form (field names, the handlers' unknown sentinel); null is undefined. */
export function toHandler(node: TfNode, value: TfValue): unknown {
  if (value === null || value === undefined) return undefined;
  if (value === UNKNOWN_VALUE) return UNKNOWN;
  switch (node.kind) {
    case "primitive":
    case "json":
      return jsonToHandler(value);
    case "list":
      return (value as TfValue[]).map((item) => toHandler(node.of, item));
    case "map":
      return Object.fromEntries(Object.entries(value as TfObject).map(([k, v]) => [k, toHandler(node.of, v)]));
    case "object":
      return objectToHandler(node.attributes, value as TfObject);
  }
}

function objectToHandler(attributes: readonly TfAttribute[], value: TfObject): Props {
  const out: Props = {};
  for (const attr of attributes) {
    const v = toHandler(attr.node, value[attr.name] ?? null);
    if (v !== undefined) out[attr.field] = v;
  }
  return out;
}

function jsonToHandler(value: TfValue): unknown {
  if (value === UNKNOWN_VALUE) return UNKNOWN;
  if (Array.isArray(value)) return value.map(jsonToHandler);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonToHandler(v)]));
  return value;
}

/** A handler value in Terraform's form: undefined is null, the unknown sentinel is unknown. */
export function fromHandler(node: TfNode, value: unknown): TfValue {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return UNKNOWN_VALUE;
  switch (node.kind) {
    case "primitive":
      return node.fromNumber && typeof value === "number" ? String(value) : (value as TfValue);
    case "json":
      return jsonFromHandler(value);
    case "list":
      return (value as unknown[]).map((item) => fromHandler(node.of, item));
    case "map":
      return Object.fromEntries(Object.entries(value as Props).map(([k, v]) => [k, fromHandler(node.of, v)]));
    case "object":
      return Object.fromEntries(node.attributes.map((a) => [a.name, fromHandler(a.node, (value as Props)[a.field])]));
  }
}

function jsonFromHandler(value: unknown): TfValue {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return UNKNOWN_VALUE;
  if (Array.isArray(value)) return value.map(jsonFromHandler);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonFromHandler(v)]));
  return value as TfValue;
}

/** The user's inputs a Terraform object carries (outputs, retired attributes and nulls left out). */
export function inputsOf(type: TfResourceType, state: TfObject): Props {
  return objectToHandler(type.attributes.filter((a) => !a.output && !a.retired), state);
}

/**
 * The handler properties of a stored object, as the Pulumi state would hold them: the private state
 * (everything the last operation or read returned, normalized by the handler, secrets left out)
 * plus the secrets from their sensitive attributes (the private state keeps the schema version it
 * was written at: the core upgrades it). State without private data (written by hand, or by an
 * older release) gives the attributes' values, at this release's schema version.
 */
export function propsOf(type: TfResourceType, state: TfObject, privateProps: Props): Props {
  if (Object.keys(privateProps).length === 0) {
    // Stored attributes are this release's: tofu upgrades them (UpgradeResourceState) before any other call.
    return withSchemaVersion(type.schemaVersion, objectToHandler(type.attributes.filter((a) => a.field !== "id"), state));
  }
  const props: Props = { ...privateProps };
  for (const attr of type.attributes) {
    if (type.secrets.includes(attr.field)) {
      const value = toHandler(attr.node, state[attr.name] ?? null);
      if (value !== undefined) props[attr.field] = value;
    }
  }
  return props;
}

/**
 * Adds the identity the Pulumi SDK sends with every resource: the Terraform type and the object's
 * name stand in for the Pulumi resource name, so a create interrupted by a killed `tofu apply`
 * derives the same ownership marker and identity again, and the next apply adopts what it made.
 * The marker also covers the values that force replacement: a create adopts only an object made
 * from the same values, never the live object a `create_before_destroy` replacement with the same
 * name is replacing (its marker was made from the old values; see docs/opentofu.md).
 * An existing object keeps the marker it was created with (from its private state).
 */
export function withIdentity(type: TfResourceType, inputs: Props, previous: Props = {}): Props {
  if (typeof previous.owner === "string" && typeof previous.resourceName === "string") {
    return { ...inputs, owner: previous.owner, resourceName: previous.resourceName };
  }
  const name = type.nameField ? inputs[type.nameField] : undefined;
  const resourceName = typeof name === "string" && name !== "" && name !== UNKNOWN ? name : type.name.replace(/^clusterform_/, "");
  return { ...inputs, owner: ownerMarker("terraform", type.name, `${resourceName}\u0000${replacingValues(type, inputs)}`), resourceName };
}

/** How users know a state entry of this type: its type and the object's name. */
function labelOf(type: TfResourceType, props: Props): string {
  const name = props.resourceName;
  return typeof name === "string" ? `${type.name} (${name})` : type.name;
}

/**
 * The state entry (holder, core/holds.ts) a stored object belongs to: the key its private state
 * keeps, or, for state written before keys were kept, its ownership marker.
 */
export function holderOf(type: TfResourceType, privateProps: Props, props: Props): Holder {
  const key = typeof privateProps.holder === "string" ? privateProps.holder : `owner ${String(props.owner ?? privateProps.owner ?? "")}`;
  return { key, label: labelOf(type, props) };
}

/** A new state entry (an apply's create): a key of its own, kept in its private state. */
export function newHolder(type: TfResourceType, inputs: Props): Holder {
  return { key: `entry ${randomUUID()}`, label: `the new ${labelOf(type, inputs)}` };
}

/** The entry a plan or validation of a new object speaks for: nothing is held while planning. */
export function planningHolder(type: TfResourceType, inputs: Props): Holder {
  return { key: `planned ${type.name} ${String(inputs.owner ?? "")}`, label: labelOf(type, inputs) };
}

/** Properties to keep in private state with the entry's holder key (when the entry has one). */
export function withHolder(props: Props, privateProps: Props): Props {
  return typeof privateProps.holder === "string" ? { ...props, holder: privateProps.holder } : props;
}

/** The values of the attributes that force replacement, in a stable text form (keys sorted). */
export function replacingValues(type: TfResourceType, inputs: Props): string {
  return JSON.stringify(type.attributes.filter((a) => a.forcesReplacement && !a.output).map((a) => [a.field, sortKeys(inputs[a.field]) ?? null]));
}

/**
 * The Terraform object of a resource after an operation or a read. Inputs keep the value they had
 * (`keep`: the plan, or the prior state) unless the handler's value differs from what that value
 * normalizes to (`normalized`, check()'s view of it): a configuration's `"1.31"` is not drift when
 * the platform reports `"1.31.0"`, but a count changed outside tofu is.
 */
export function stateOf(type: TfResourceType, id: string, props: Props, keep?: TfObject, normalized?: Props): TfObject {
  const state: TfObject = {};
  for (const attr of type.attributes) {
    const kept = keep?.[attr.name];
    if (attr.field === "id") state[attr.name] = id;
    else if (!attr.output && kept !== undefined && kept !== null && !hasUnknown(kept) && (!normalized || deepEqual(normalized[attr.field], props[attr.field]))) {
      state[attr.name] = kept;
    } else state[attr.name] = fromHandler(attr.node, props[attr.field]);
  }
  return state;
}

/** The private state: the handler's properties without secrets (they stay in sensitive attributes only). */
export function encodePrivate(type: TfResourceType, props: Props): Uint8Array {
  const kept = Object.fromEntries(Object.entries(props).filter(([k]) => !type.secrets.includes(k) && k !== "__provider"));
  return new TextEncoder().encode(JSON.stringify(kept));
}

/** Reads the private state back ({} when there is none). */
export function decodePrivate(bytes: Uint8Array | undefined): Props {
  if (!bytes || bytes.length === 0) return {};
  return JSON.parse(new TextDecoder().decode(bytes)) as Props;
}

/**
 * A stored object tofu recorded at schema version `from` (its `schema_version`), as JSON in the
 * attribute names of the release that wrote it, upgraded to this release's attributes through the
 * kind's migrations (core/definition/migration.ts): today's attributes are decoded by their types;
 * the fields migrations read (retired ones by the names they had in HCL, converted ones whose type
 * may have changed) are taken as stored.
 */
export function upgradeStored(type: TfResourceType, kind: Kind, json: string, from: number): TfObject {
  const stored = JSON.parse(json) as Record<string, TfValue>;
  const taken = migratedFields(kind.migrations);
  const names = new Set(taken.map((field) => attributeName(field, {})));
  const typed = decodeStateJson(JSON.stringify(Object.fromEntries(Object.entries(stored).filter(([name]) => !names.has(name)))), type.objectType) as TfObject;
  const props = objectToHandler(
    type.attributes.filter((a) => a.field !== "id"),
    typed,
  );
  for (const field of taken) {
    const value = stored[attributeName(field, {})];
    if (value !== undefined && value !== null) props[field] = camelKeys(value);
  }
  return stateOf(type, String(stored.id ?? ""), upgradeProps(kind.type, kind.migrations, props, from));
}

/** A migrated attribute's value in definition keys: nested objects' HCL names in camelCase (a dynamic value's `{value, type}` is not unwrapped). */
function camelKeys(value: TfValue): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camelKeys(v)]));
}
