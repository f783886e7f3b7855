import { ownerMarker } from "../../core/naming";
import { UNKNOWN } from "../../core/unknown";
import { hasUnknown, type TfValue, UNKNOWN_VALUE } from "./codec";
import type { TfResourceType } from "./schema";

/** Handler properties: what the Pulumi dynamic provider would hold for the object (camelCase). */
export type Props = Record<string, unknown>;

/** A Terraform value in the handlers' form: an unknown becomes the handlers' unknown sentinel. */
export function toHandlerValue(value: TfValue): unknown {
  if (value === UNKNOWN_VALUE) return UNKNOWN;
  if (Array.isArray(value)) return value.map(toHandlerValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, toHandlerValue(v)]));
  }
  return value;
}

/** A handler value in Terraform's form: undefined is null, the unknown sentinel is unknown. */
export function toTfValue(value: unknown): TfValue {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return UNKNOWN_VALUE;
  if (Array.isArray(value)) return value.map(toTfValue);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toTfValue(v)]));
  }
  return value as TfValue;
}

/** The inputs a Terraform object value carries (outputs and nulls left out). */
export function inputsOf(type: TfResourceType, state: Record<string, TfValue>): Props {
  const props: Props = {};
  for (const attr of type.attributes) {
    const value = state[attr.name];
    if (!attr.output && value !== null && value !== undefined) props[attr.field] = toHandlerValue(value);
  }
  return props;
}

/**
 * The handler properties of a stored object: the private state (everything the last operation
 * returned, secrets left out) overlaid with the state's attributes, whose values win.
 */
export function propsOf(type: TfResourceType, state: Record<string, TfValue>, privateProps: Props): Props {
  const props: Props = { ...privateProps };
  for (const attr of type.attributes) {
    const value = state[attr.name];
    if (attr.field === "id") continue;
    if (value !== null && value !== undefined) props[attr.field] = toHandlerValue(value);
    else if (!attr.output) delete props[attr.field];
  }
  return props;
}

/**
 * Adds the identity the Pulumi SDK sends with every resource: the Terraform type and the object's
 * name stand in for the Pulumi resource name, so that a create interrupted by a killed `tofu apply`
 * derives the same ownership marker and identity again and the next apply adopts what it made.
 * An existing object keeps the marker it was created with (from its private state).
 */
export function withIdentity(type: TfResourceType, inputs: Props, previous: Props = {}): Props {
  if (typeof previous.owner === "string" && typeof previous.resourceName === "string") {
    return { ...inputs, owner: previous.owner, resourceName: previous.resourceName };
  }
  const name = type.nameField ? inputs[type.nameField] : undefined;
  const resourceName = typeof name === "string" && name !== "" ? name : type.name;
  return { ...inputs, owner: ownerMarker("terraform", type.name, resourceName), resourceName };
}

/** The Terraform object of a resource: the planned input values where known, else the handler's. */
export function stateOf(type: TfResourceType, id: string, props: Props, planned?: Record<string, TfValue>): Record<string, TfValue> {
  const state: Record<string, TfValue> = {};
  for (const attr of type.attributes) {
    const plannedValue = planned?.[attr.name];
    if (attr.field === "id") state[attr.name] = id;
    else if (!attr.output && plannedValue !== undefined && plannedValue !== null && !hasUnknown(plannedValue)) state[attr.name] = plannedValue;
    else state[attr.name] = toTfValue(props[attr.field]);
  }
  return state;
}

/** The private state: the handler's properties without secrets (they stay in sensitive attributes only). */
export function encodePrivate(type: TfResourceType, props: Props): Uint8Array {
  const kept = Object.fromEntries(Object.entries(props).filter(([k]) => !type.secrets.includes(k)));
  return new TextEncoder().encode(JSON.stringify(kept));
}

/** Reads the private state back ({} when there is none). */
export function decodePrivate(bytes: Uint8Array | undefined): Props {
  if (!bytes || bytes.length === 0) return {};
  return JSON.parse(new TextDecoder().decode(bytes)) as Props;
}
