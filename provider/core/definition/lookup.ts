import { z } from "zod";
import type { Platform } from "../config";
import type { OperationContext, Props } from "../contract";
import { type Field, type TypeSpec, v } from "./values";

/*
 * Lookups: what a program reads without owning it (a Pulumi function `clusterform:<platform>:getX`,
 * an OpenTofu data source `clusterform_<platform>_x`). Each is declared once on its kind (kind.ts),
 * with its arguments and its result written as fields, so every engine's schema, SDK and reference
 * derive from the declaration; the core runs it (core/lookup.ts) and the adapters only translate.
 * A lookup only reads.
 */

type Fields = Readonly<Record<string, Field>>;

/** The read of a {@link ReadLookup}: its result in the definitions' keys, or undefined when the object its arguments name does not exist. */
export type LookupRead = (ctx: OperationContext, args: Props) => Promise<Props | undefined>;

/** Resolves a lookup's other keys (a name, a path) to the import id with one platform call; undefined when nothing has them. */
export type LookupFind = (ctx: OperationContext, args: Props) => Promise<string | undefined>;

interface LookupBase {
  /** The function's name, e.g. `getCluster`: Pulumi token `clusterform:<platform>:getCluster`, data source `clusterform_<platform>_cluster`. */
  readonly name: string;
  readonly description: string;
  /** The platform whose endpoint is read. */
  readonly platform: Platform;
  /** The arguments: validated like inputs (unknown keys refused). */
  readonly args: Fields;
  /** The result's fields: the same names, types and secrecy as the kind's own fields where they are the same value. */
  readonly result: Fields;
}

/**
 * The lookup of one object by the identity its import uses: answered by the kind's import read
 * (its import.ts), so the result holds what an import would put in the state, owning nothing.
 */
export interface ObjectLookup extends LookupBase {
  readonly form: "object";
  /** The import id the arguments give, or undefined when {@link find} must resolve another key. */
  importId(args: Props): string | undefined;
  /** How the arguments name the object in errors, e.g. `name "prod"`. */
  key(args: Props): string;
  /** Resolves the other keys to the import id (one platform call), loaded at the first call. @default none */
  find?(): Promise<LookupFind>;
  /** Inputs the result leaves out: the platform never reports them. */
  readonly omitted: readonly string[];
  /** Arguments of which exactly one must be given (an id or a name), when there are alternatives. @default none */
  readonly oneOf?: readonly string[];
}

/** A lookup answered by a read of its own: a list with the platform's filters, the versions a platform offers. */
export interface ReadLookup extends LookupBase {
  readonly form: "read";
  /** How the arguments name what must exist, for the error when it does not; none for a list, whose no match is an empty list. */
  key?(args: Props): string;
  /** The read, loaded at the first call. */
  read(): Promise<LookupRead>;
}

/** One lookup of a kind. */
export type Lookup = ObjectLookup | ReadLookup;

/** An output of a lookup's result: a field that validates nothing (results are never checked). */
export function resultField(type: TypeSpec, description: string, options: { optional?: boolean; secret?: boolean } = {}): Field {
  return { value: { type, validate: z.unknown() }, required: options.optional !== true, description, ...(options.secret ? { secret: true } : {}) };
}

/** What a lookup needs of a kind's fields (its schema.ts): written out here, since the kind's definition lists its lookups. */
interface KindFieldsLike {
  readonly type: string;
  readonly allInputs: Fields;
  readonly outputs: Readonly<Record<string, { readonly type: TypeSpec; readonly description: string; readonly secret?: boolean; readonly optional?: boolean }>>;
  readonly importId?: { readonly shape: string; readonly unreported?: readonly string[] };
}

/** Inputs that say what the owning program does with the object, not what the platform has. */
const PROGRAM_ONLY: readonly string[] = ["timeouts", "deletionPolicy", "capacityOwner"];

/**
 * The result fields of an object of a kind: `id`, the inputs (without `timeouts`, `deletionPolicy`
 * and `capacityOwner`, which are the owning program's and not the platform's, and `omitted`), the outputs.
 */
export function stateFields(kind: KindFieldsLike, omitted: readonly string[]): Record<string, Field> {
  const fields: Record<string, Field> = { id: resultField({ kind: "string" }, `The object's id on the platform, as \`import\` takes it (${kind.importId?.shape ?? "its id"}).`) };
  for (const [key, f] of Object.entries(kind.allInputs)) {
    if (PROGRAM_ONLY.includes(key) || omitted.includes(key)) continue;
    // Reported inputs the platform always has are present; others may be absent.
    const present = f.required || f.computed === true || f.serverDefault === true || f.value.validate instanceof z.ZodDefault;
    fields[key] = { ...f, required: present, policy: undefined, default: undefined, defaultValue: undefined };
  }
  for (const [key, o] of Object.entries(kind.outputs)) {
    fields[key] = resultField(o.type, o.description, { optional: o.optional, secret: o.secret });
  }
  return fields;
}

/** What {@link lookupObject} takes. */
export interface ObjectLookupSpec {
  /** @default `get<Kind>` */
  name?: string;
  description: string;
  args: Fields;
  importId(args: Props): string | undefined;
  key(args: Props): string;
  find?(): Promise<LookupFind>;
  /** @default the kind's `importId.unreported` */
  omitted?: readonly string[];
  /** Arguments of which exactly one must be given. @default none */
  oneOf?: readonly string[];
}

/** The lookup of one object of a kind by the identity its import uses (see {@link ObjectLookup}). */
export function lookupObject(kind: KindFieldsLike, platform: Platform, spec: ObjectLookupSpec): ObjectLookup {
  const omitted = spec.omitted ?? kind.importId?.unreported ?? [];
  const { name = `get${kind.type.split(":")[1]}`, description, args, importId, key, find, oneOf } = spec;
  return { form: "object", name, description, platform, args, result: stateFields(kind, omitted), importId, key, ...(find ? { find } : {}), omitted, ...(oneOf ? { oneOf } : {}) };
}

/** What {@link lookupList} takes. */
export interface ListLookupSpec {
  /** e.g. `getClusters`. */
  name: string;
  description: string;
  /** The platform's own filters. */
  args: Fields;
  /** The result's list, e.g. `clusters`. */
  items: string;
  /** The kind's fields each item holds (inputs or outputs, by definition key), beyond `id`: what the list call reports. */
  fields: readonly string[];
  /** Reads the matching objects (each in the definitions' keys, with `id`); no match is an empty list. */
  read(): Promise<(ctx: OperationContext, args: Props) => Promise<Props[]>>;
}

/**
 * A list of a kind's objects with the platform's filters: one list call, its items holding the fields
 * that call reports (a field only another call reports is left out rather than read per item).
 */
export function lookupList(kind: KindFieldsLike, platform: Platform, spec: ListLookupSpec): ReadLookup {
  const all = stateFields(kind, []);
  const missing = spec.fields.filter((f) => !all[f]);
  if (missing.length > 0) throw new Error(`${kind.type} ${spec.name}: no field ${missing.join(", ")}`);
  const itemFields = Object.fromEntries(["id", ...spec.fields].map((f) => [f, all[f]]));
  const itemName = `${kind.type.split(":")[1]}Summary`;
  const item = v.object(itemName, `A ${kind.type} as ${spec.name} lists it.`, itemFields).type;
  const result = { [spec.items]: resultField({ kind: "list", of: item }, `The matching objects; empty when none matches.`) };
  return {
    form: "read",
    name: spec.name,
    description: spec.description,
    platform,
    args: spec.args,
    result,
    async read() {
      const list = await spec.read();
      return async (ctx, args) => ({ [spec.items]: (await list(ctx, args)).map((item) => pick(item, Object.keys(itemFields))) });
    },
  };
}

function pick(values: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}
