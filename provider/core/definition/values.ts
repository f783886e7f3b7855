import { z } from "zod";
import type { PlatformSize } from "../planner";
import { intInRange, oneOf, orUnknown, uuid } from "../validation";

/**
 * The engine-neutral type of a value: what the Pulumi schema, the SDKs, the Terraform schema and the
 * reference docs say a field holds. The validator decides what is accepted; the type is how every
 * engine declares it.
 */
export type TypeSpec =
  | { kind: "string"; enum?: readonly string[] }
  | { kind: "integer"; min?: number; max?: number }
  | { kind: "number" }
  | { kind: "boolean" }
  /** Any JSON value (Senlin's free-form metadata). */
  | { kind: "json" }
  /** A string, or a number taken as its decimal text. */
  | { kind: "stringOrNumber" }
  | { kind: "map"; of: TypeSpec }
  | { kind: "list"; of: TypeSpec }
  | { kind: "object"; name: string; description: string; fields: Readonly<Record<string, Field>> };

/** A value: its type for the engines and its validator (which lets the preview's unknown sentinel through). */
export interface Value<T> {
  readonly type: TypeSpec;
  readonly validate: z.ZodType<T, unknown>;
}

/** Names a field has in engines whose conventions differ from the TypeScript name. */
export interface EngineNames {
  /** The name users write in Pulumi programs and the package schema. @default the field's key */
  readonly pulumi?: string;
  /** The Terraform attribute name. @default the Pulumi name in snake_case */
  readonly terraform?: string;
}

/** How a change to a top-level input is carried out (see provider/core/planner.ts). */
export type ChangePolicy =
  | { kind: "replace" }
  | { kind: "update"; operation: string }
  /** Changed in place in the state only: nothing is sent to the platform (`deletionPolicy`). */
  | { kind: "record" }
  | { kind: "ignore" };

/**
 * One field, written once: its value, whether it is required, its documentation and its change
 * policy. `P` says whether the field is always present after validation (required, or given a
 * default by its validator); `required` whether the user must give it.
 */
export interface Field<T = unknown, P extends boolean = boolean> {
  readonly value: Value<T>;
  readonly required: boolean;
  /** Type-level only: present after validation. */
  readonly present?: P;
  /** What the field is, in a sentence or two; the change policy is added by the generators. */
  readonly description: string;
  /** What an absent optional field means, as documentation (`"{}"`, `"the resource name plus a short hash"`). */
  readonly default?: string;
  /** A machine-readable default for primitive fields (the package schema's `default`). */
  readonly defaultValue?: string | number | boolean;
  /** Kept secret in state and outputs. @default false */
  readonly secret?: boolean;
  /**
   * When absent, the provider fills in a value (a derived name, `"root"`), so the state always holds
   * one: Terraform's optional + computed. @default false
   */
  readonly computed?: boolean;
  /**
   * When absent, the platform picks the value (a distribution, a version, an action timeout): an
   * absent value plans no change, whatever the object has, so an imported object whose program
   * leaves the field out is not changed or replaced (Terraform's optional + computed). @default false
   */
  readonly serverDefault?: boolean;
  /** How a change is carried out: top-level inputs only. */
  readonly policy?: ChangePolicy;
  /** Why the field changes the way it does, for the docs (e.g. "pod CIDRs are fixed at creation"). */
  readonly note?: string;
  /**
   * A size the platform may change on its own: the kind then takes a `capacityOwner` input, and with
   * `"platform"` the live value stands after create (core/capacity.ts). Top-level in-place inputs
   * only. @default not a size the platform changes
   */
  readonly platformSize?: PlatformSize;
  /**
   * A value the generated examples (the reference pages) give the field, where one made up from its
   * type would fail validation (a version, one of an enum). An optional input with an example is
   * part of the examples too (a pool that needs `count` or `coreCount`).
   */
  readonly example?: string | number | boolean;
  readonly names?: EngineNames;
}

/** Options shared by {@link required} and {@link optional}. */
export interface FieldOptions {
  description: string;
  computed?: boolean;
  serverDefault?: boolean;
  policy?: ChangePolicy;
  note?: string;
  platformSize?: PlatformSize;
  example?: string | number | boolean;
  secret?: boolean;
  names?: EngineNames;
}

/** A field the user must give. */
export function required<T>(value: Value<T>, options: FieldOptions): Field<T, true> {
  return { value, required: true, ...options };
}

/**
 * A field the user may leave out and whose validator fills in `defaultValue` (a zod default), so it
 * is always present after validation.
 */
export function defaulted<T extends string | number | boolean>(
  value: Value<T>,
  options: FieldOptions & { defaultValue: T },
): Field<T, true> {
  const validate = (value.validate as z.ZodType<T, unknown>).default(options.defaultValue as never) as unknown as z.ZodType<T, unknown>;
  return { value: { type: value.type, validate }, required: false, computed: true, default: JSON.stringify(options.defaultValue), ...options };
}

/** A field the user may leave out; `default` says what that means. */
export function optional<T>(
  value: Value<T>,
  options: FieldOptions & { default?: string; defaultValue?: string | number | boolean },
): Field<T, false> {
  return { value, required: false, ...options };
}

/** Change policies, as the field tables write them. */
export const replace: ChangePolicy = { kind: "replace" };
export const inPlace = (operation: string): ChangePolicy => ({ kind: "update", operation });
export const ignored: ChangePolicy = { kind: "ignore" };
export const recorded: ChangePolicy = { kind: "record" };

type FieldsOf = Readonly<Record<string, Field>>;
type ValueOf<F> = F extends Field<infer T, boolean> ? T : never;
type RequiredKeys<Fs> = { [K in keyof Fs]: Fs[K] extends { present?: true } ? K : never }[keyof Fs];
type OptionalKeys<Fs> = Exclude<keyof Fs, RequiredKeys<Fs>>;

/** The validated value of an object of fields: required keys present, optional ones possibly absent. */
export type ValuesOf<Fs> = { [K in RequiredKeys<Fs>]: ValueOf<Fs[K]> } & { [K in OptionalKeys<Fs>]?: ValueOf<Fs[K]> };

/** A zod object of fields, strict (unknown keys are refused, naming them). */
export function objectSchema<Fs extends FieldsOf>(fields: Fs): z.ZodType<ValuesOf<Fs>, unknown> {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([key, f]) => [key, f.required || f.value.validate instanceof z.ZodDefault ? f.value.validate : f.value.validate.optional()]),
  );
  return z.object(shape).strict() as unknown as z.ZodType<ValuesOf<Fs>, unknown>;
}

/** Values built from the core validation blocks, each with its engine type. */
export const v = {
  /** Any value `validate` accepts, declared as `type`. */
  custom<T>(type: TypeSpec, validate: z.ZodType<T, unknown>): Value<T> {
    return { type, validate };
  },
  string(): Value<string> {
    return { type: { kind: "string" }, validate: orUnknown(z.string()) };
  },
  /** A UUID (lowercase hex, 8-4-4-4-12). */
  uuid(): Value<string> {
    return { type: { kind: "string" }, validate: uuid() };
  },
  boolean(): Value<boolean> {
    return { type: { kind: "boolean" }, validate: orUnknown(z.boolean()) };
  },
  int(min: number, max: number): Value<number> {
    return { type: { kind: "integer", min, max }, validate: intInRange(min, max) };
  },
  oneOf<const T extends readonly [string, ...string[]]>(values: T): Value<T[number]> {
    return { type: { kind: "string", enum: values }, validate: oneOf(values) };
  },
  /**
   * A nested object of fields, named for the engines that declare object types (`ControlPlane`).
   * @param refine - checks across its fields, as zod's superRefine.
   */
  object<Fs extends FieldsOf>(
    name: string,
    description: string,
    fields: Fs,
    refine?: (value: ValuesOf<Fs>, ctx: z.RefinementCtx) => void,
  ): Value<ValuesOf<Fs>> {
    const base = objectSchema(fields);
    const validate = orUnknown(refine ? base.superRefine(refine) : base) as z.ZodType<ValuesOf<Fs>, unknown>;
    return { type: { kind: "object", name, description, fields }, validate };
  },
};
