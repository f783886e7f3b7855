import { isUnknown } from "../unknown";
import type { Kind } from "./kind";
import type { Field, TypeSpec } from "./values";

/** An engine whose field names may differ from the definitions' keys. */
export type Engine = "pulumi" | "terraform";

/** `clusterName` -> `cluster_name`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** A field's name in an engine: its override, else the key (Pulumi) or the Pulumi name in snake_case (Terraform). */
export function engineName(key: string, field: Pick<Field, "names">, engine: Engine): string {
  const pulumi = field.names?.pulumi ?? key;
  return engine === "pulumi" ? pulumi : (field.names?.terraform ?? snakeCase(pulumi));
}

type Fields = Readonly<Record<string, Pick<Field, "names" | "value">>>;

/** Every field of a kind the engines see: the inputs (with `timeouts`) and the outputs. */
export function engineFields(kind: Kind): Fields {
  const outputs = Object.fromEntries(Object.entries(kind.outputs).map(([key, o]) => [key, { value: { type: o.type } }]));
  return { ...outputs, ...kind.allInputs } as Fields;
}

function renameValue(type: TypeSpec, value: unknown, engine: Engine, outward: boolean): unknown {
  if (value === null || value === undefined || isUnknown(value)) return value;
  if (type.kind === "object" && typeof value === "object" && !Array.isArray(value)) {
    return renameObject(type.fields, value as Record<string, unknown>, engine, outward);
  }
  if (type.kind === "list" && Array.isArray(value)) return value.map((item) => renameValue(type.of, item, engine, outward));
  if (type.kind === "map" && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, renameValue(type.of, item, engine, outward)]));
  }
  return value;
}

function renameObject(fields: Fields, values: Record<string, unknown>, engine: Engine, outward: boolean): Record<string, unknown> {
  const byName = new Map<string, [string, Pick<Field, "names" | "value">]>();
  for (const [key, field] of Object.entries(fields)) byName.set(outward ? key : engineName(key, field, engine), [key, field]);
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const found = byName.get(name);
    // Names no field has pass unchanged: validation then reports them, naming what the user wrote.
    if (!found) {
      result[name] = value;
      continue;
    }
    const [key, field] = found;
    result[outward ? engineName(key, field, engine) : key] = renameValue(field.value.type, value, engine, outward);
  }
  return result;
}

/**
 * Inputs or state as the handlers hold them (definition keys, e.g. `jobOwner`) renamed to an
 * engine's names (`owner`, `job_owner`), nested objects included. Hidden inputs (the ownership
 * marker, the resource name) are left out unless they are outputs too (a derived job id): an
 * engine adapter keeps them apart (see {@link hiddenOf}). Other keys no field has pass unchanged.
 */
export function toEngineNames(kind: Kind, values: Record<string, unknown>, engine: Engine): Record<string, unknown> {
  const visible = Object.fromEntries(Object.entries(values).filter(([key]) => !isHiddenOnly(kind, key)));
  return renameObject(engineFields(kind), visible, engine, true);
}

/** The hidden inputs among `values` (the ownership marker, the resource name, `autoNamed`, derived ids). */
export function hiddenOf(kind: Kind, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => key in kind.hidden));
}

function isHiddenOnly(kind: Kind, key: string): boolean {
  return key in kind.hidden && !(key in kind.outputs);
}

/** The reverse of {@link toEngineNames}: an engine's names back to the definition keys. */
export function fromEngineNames(kind: Kind, values: Record<string, unknown>, engine: Engine): Record<string, unknown> {
  return renameObject(engineFields(kind), values, engine, false);
}

/**
 * A check failure of the handlers (which name fields by their definition keys, e.g. `jobOwner`)
 * as an engine's users know the field (`owner`): its property and the start of its reason.
 */
export function failureInEngineNames<F extends { property: string; reason: string }>(kind: Kind, failure: F, engine: Engine): F {
  const top = failure.property.split(/[.[]/)[0] || failure.reason.split(/[ .[]/)[0];
  const field = kind.allInputs[top];
  if (!field) return failure;
  const name = engineName(top, field, engine);
  if (name === top) return failure;
  const rename = (text: string) => (text.startsWith(top) ? name + text.slice(top.length) : text);
  return { ...failure, property: rename(failure.property), reason: rename(failure.reason) };
}

/**
 * Values keyed by fields that are not a kind's (a lookup's arguments or result, definition/lookup.ts)
 * renamed to an engine's names, nested objects included; other keys pass unchanged.
 */
export function fieldsToEngineNames(fields: Readonly<Record<string, Field>>, values: Record<string, unknown>, engine: Engine): Record<string, unknown> {
  return renameObject(fields, values, engine, true);
}

/** The reverse of {@link fieldsToEngineNames}. */
export function fieldsFromEngineNames(fields: Readonly<Record<string, Field>>, values: Record<string, unknown>, engine: Engine): Record<string, unknown> {
  return renameObject(fields, values, engine, false);
}
