import { z } from "zod";
import type { Props, ResourceOperations } from "../contract";
import type { ImportDefinition } from "../contract";
import { capacityOwnerField } from "../capacity";
import { deletionPolicyField } from "../deletion";
import type { KindPlanner } from "../plan/operation";
import { COMMON_IGNORED, type FieldPolicy, type PolicyTable } from "../planner";
import { type CheckFailure, durationString, orUnknown } from "../validation";
import type { Lookup } from "./lookup";
import { type Migration, schemaVersionOf } from "./migration";
import { type Field, objectSchema, optional, required, type TypeSpec, type Value, type ValuesOf } from "./values";

type Fields = Readonly<Record<string, Field>>;

/** An output the platform reports beyond the inputs. */
export interface OutputField {
  readonly type: TypeSpec;
  readonly description: string;
  /** Secret in state and in every engine (a kubeconfig). @default false */
  readonly secret?: boolean;
  /** May be absent (null). @default false */
  readonly optional?: boolean;
}

/** Default time limits of a kind's operations, as durations (`"20m"`). */
export interface TimeoutDefaults {
  create: string;
  update: string;
  delete: string;
}

/** What identifies an existing object for `pulumi import` / `tofu import`. */
export interface ImportId {
  /** The id's shape, e.g. `<cluster>/<pool>`. */
  shape: string;
  /** An example id. */
  example: string;
  /** Inputs the platform cannot report: the program must state them. @default [] */
  unreported?: readonly string[];
}

/** A kind's fields and facts, written once (its schema.ts). */
export interface FieldsSpec<Fs extends Fields, Hs extends Fields, T extends string = string> {
  /** `<platform>:<Kind>`, e.g. `cmassh:NodePool`: the dynamic type, the native token's tail, the Terraform type's source. */
  type: T;
  /** What the resource is and how it changes, for every SDK and the reference. */
  description: string;
  /** The user's inputs, each with its change policy. */
  inputs: Fs;
  /** Inputs the SDK or the provider adds (ownership marker, derived names and ids): never written by users. */
  hidden: Hs;
  /** Outputs beyond the inputs. */
  outputs: Readonly<Record<string, OutputField>>;
  /** Checks across fields (zod superRefine over the validated inputs). */
  refine?(inputs: ValuesOf<Fs> & ValuesOf<Hs>, ctx: z.RefinementCtx): void;
  /** Default time limits; every kind takes a `timeouts` input. */
  timeouts: TimeoutDefaults;
  importId?: ImportId;
  /**
   * The order of a replacement when the program does not set `deleteBeforeReplace`: create-first for
   * objects the platform refuses to delete while others use them (a Senlin profile a cluster is built
   * from), whose identity a replacement always changes. @default "delete-first"
   */
  replaceOrder?: "create-first" | "delete-first";
  /**
   * The kind takes a `deletionPolicy` input (core/deletion.ts): protect the object from a destroy or
   * a replacement, or abandon it. For kinds that hold a cluster or what runs on one. @default false
   */
  deletionPolicy?: boolean;
  /**
   * How state written by older releases reaches today's fields (definition/migration.ts), oldest
   * first: the kind's state schema version is their number. A release that renames, splits or
   * re-units a field, or adds one older state must read with a value, appends one. @default none
   */
  migrations?: readonly Migration[];
}

/**
 * How a kind is identified, completed and planned (pure, loaded with its fields) and, loaded lazily,
 * its platform operations and import (its kind.ts).
 */
export interface KindBehaviour<Fs extends Fields, Hs extends Fields> {
  /**
   * The object's identity on the platform as the inputs determine it (a name, `cluster/pool`, a
   * deterministic id), or undefined while unknown. Two objects of one identity cannot coexist, and
   * an object found under it may be adopted (contract.ts CreateContext.confirmAdoption). Pure.
   */
  identity(inputs: Props): string | undefined;
  /** Fills in derived inputs (names, ids) from the old and new inputs; runs after validation. Pure. */
  complete?(olds: Props, news: InputsOf<Fs, Hs> & Props, kind: Kind): InputsOf<Fs, Hs> & Props;
  /** Checks that depend on the old inputs too, e.g. a version downgrade. Pure. */
  checkChange?(olds: Props, news: InputsOf<Fs, Hs> & Props): CheckFailure[];
  /** The kind's planner (its plan.ts): `update` carries out the operations it lists. Pure. */
  planner: KindPlanner;
  /** The platform operations (operations.ts), loaded at the first platform call: a preview never loads a client. */
  operations(): Promise<ResourceOperations<InputsOf<Fs, Hs>>>;
  /** How an object is read by its import id (import.ts), loaded when an import runs. */
  importer(): Promise<ImportDefinition>;
  /**
   * What programs read without owning (definition/lookup.ts): the object by the identity its import
   * uses, lists with the platform's filters, what the platform offers. Reads only. @default none
   */
  lookups?: readonly Lookup[];
}

/** Validated `timeouts`. */
export interface Timeouts {
  create?: string;
  update?: string;
  delete?: string;
}

/** A kind's fields and what derives from them (its schema.ts). */
export interface KindFields<Fs extends Fields = Fields, Hs extends Fields = Fields, T extends string = string> extends FieldsSpec<Fs, Hs, T> {
  /** The user-facing inputs plus `timeouts`. */
  readonly allInputs: Readonly<Record<string, Field>>;
  /** Validates and normalizes inputs (hidden ones included): strict, unknown keys refused. */
  readonly schema: z.ZodType<InputsOf<Fs, Hs>, unknown>;
  /** The field-policy table the planner reads: every input's policy, hidden ones ignored. */
  readonly policies: PolicyTable;
  /**
   * The inputs whose values seed derived names and ids: those that force a replacement, in
   * definition order, without `name` itself (a replacement gets a new derived identity).
   */
  readonly seeds: readonly string[];
  /** The state schema version this release writes: the number of {@link FieldsSpec.migrations}. */
  readonly schemaVersion: number;
}

/** The validated inputs of a kind. */
export type InputsOf<Fs extends Fields, Hs extends Fields> = ValuesOf<Fs> & ValuesOf<Hs> & { timeouts?: Timeouts };

/** The `timeouts` object type, shared by every kind. */
const TIMEOUT_FIELDS = {
  create: optional(durationValue(), { description: "How long a create may take, e.g. `\"30m\"`, `\"1h30m\"`, `\"90s\"`." }),
  update: optional(durationValue(), { description: "How long an update may take." }),
  delete: optional(durationValue(), { description: "How long a delete may take." }),
};

function durationValue(): Value<string> {
  return { type: { kind: "string" }, validate: durationString() };
}

/** The `timeouts` field of a kind with these defaults. */
function timeoutsField(defaults: TimeoutDefaults): Field<Timeouts, false> {
  const validate = orUnknown(objectSchema(TIMEOUT_FIELDS)) as z.ZodType<Timeouts, unknown>;
  return optional(
    { type: { kind: "object", name: "Timeouts", description: "Time limits of a resource's operations.", fields: TIMEOUT_FIELDS }, validate },
    {
      description: "Time limits of create, update and delete; `customTimeouts` of the native plugin apply too (the smaller wins).",
      default: `create ${JSON.stringify(defaults.create)}, update ${JSON.stringify(defaults.update)}, delete ${JSON.stringify(defaults.delete)}`,
      policy: { kind: "ignore" },
    },
  );
}

/**
 * Defines a kind's fields, each written once. The zod schema, the policy table, the
 * TypeScript input type, the SDK classes, the package schema and the reference docs all derive from
 * it (provider/cli/codegen/, `npm run generate:schema`).
 * A kind with an input marked `platformSize` takes a `capacityOwner` input (core/capacity.ts).
 * @throws Error when a user input has no change policy (every field must say how it changes), or a
 * `platformSize` is not an in-place input or names a bound that is no input.
 */
export function defineFields<Fs extends Fields, Hs extends Fields, T extends string>(spec: FieldsSpec<Fs, Hs, T>): KindFields<Fs, Hs, T> {
  const missing = Object.entries(spec.inputs).filter(([, f]) => f.policy === undefined);
  if (missing.length > 0) throw new Error(`${spec.type}: inputs without a change policy: ${missing.map(([k]) => k).join(", ")}`);
  const sizes = platformSizes(spec.type, spec.inputs);
  const bounded = sizes.some((key) => spec.inputs[key].platformSize?.min !== undefined || spec.inputs[key].platformSize?.max !== undefined);
  const allInputs: Record<string, Field> = {
    ...spec.inputs,
    ...(sizes.length > 0 ? { capacityOwner: capacityOwnerField(sizes, bounded) } : {}),
    ...(spec.deletionPolicy ? { deletionPolicy: deletionPolicyField() } : {}),
    timeouts: timeoutsField(spec.timeouts),
  };
  const base = objectSchema({ ...spec.hidden, ...allInputs });
  const schema = (spec.refine ? base.superRefine(spec.refine as never) : base) as unknown as z.ZodType<InputsOf<Fs, Hs>, unknown>;
  const policies: Record<string, FieldPolicy> = { ...COMMON_IGNORED };
  for (const key of Object.keys(spec.hidden)) policies[key] = { kind: "ignore" };
  for (const [key, f] of Object.entries(allInputs)) {
    const policy = f.policy as FieldPolicy;
    const sized = f.platformSize && policy.kind === "update" ? { ...policy, platformSize: f.platformSize } : policy;
    policies[key] = f.serverDefault && (sized.kind === "replace" || sized.kind === "update") ? { ...sized, absentKeeps: true } : sized;
  }
  const seeds = Object.entries(allInputs)
    .filter(([key, f]) => f.policy?.kind === "replace" && key !== "name")
    .map(([key]) => key);
  checkMigrations(spec.type, spec.migrations, new Set([...Object.keys(allInputs), ...Object.keys(spec.outputs)]));
  return { ...spec, allInputs, schema, policies, seeds, schemaVersion: schemaVersionOf(spec.migrations) };
}

/**
 * Each migration step names fields that exist where it says: a rename's or split's source is no
 * field of today's (it would be read twice), its target, a converted field and a default are.
 */
function checkMigrations(type: string, migrations: readonly Migration[] | undefined, fields: ReadonlySet<string>): void {
  for (const { release, steps } of migrations ?? []) {
    for (const step of steps) {
      const [gone, kept] =
        "rename" in step ? [[step.rename], [step.to]] : "split" in step ? [[step.split], []] : "default" in step ? [[], [step.default]] : [[], [step.convert]];
      const wrong = [...gone.filter((f) => fields.has(f)).map((f) => `${f} is still a field`), ...kept.filter((f) => !fields.has(f)).map((f) => `${f} is no field`)];
      if (wrong.length > 0) throw new Error(`${type}: the ${release} migration names fields wrongly: ${wrong.join(", ")}`);
    }
  }
}

/** The inputs marked `platformSize`, each checked: in place, its bounds other inputs. */
function platformSizes(type: string, inputs: Fields): string[] {
  const sizes = Object.entries(inputs).filter(([, f]) => f.platformSize !== undefined);
  for (const [key, f] of sizes) {
    if (f.policy?.kind !== "update") throw new Error(`${type}: ${key} is a platformSize but does not change in place`);
    const bounds = [f.platformSize?.min, f.platformSize?.max].filter((b): b is string => b !== undefined);
    const unknown = bounds.filter((b) => !Object.hasOwn(inputs, b));
    if (unknown.length > 0) throw new Error(`${type}: ${key}'s platformSize names bounds that are no inputs: ${unknown.join(", ")}`);
  }
  return sizes.map(([key]) => key);
}

/** Everything a kind is: its fields, how it is identified and planned, its operations and import. */
export type Kind<Fs extends Fields = Fields, Hs extends Fields = Fields, T extends string = string> = KindFields<Fs, Hs, T> & KindBehaviour<Fs, Hs>;

/** A kind from its fields (schema.ts) and its behaviour (kind.ts). */
export function defineKind<Fs extends Fields, Hs extends Fields, T extends string>(fields: KindFields<Fs, Hs, T>, behaviour: KindBehaviour<Fs, Hs>): Kind<Fs, Hs, T> {
  return { ...fields, ...behaviour };
}

/** The hidden inputs every kind has: the ownership marker and the Pulumi resource name. */
export const OWNERSHIP = {
  owner: required({ type: { kind: "string" }, validate: z.string().min(1) }, { description: "The ownership marker." }),
  resourceName: required({ type: { kind: "string" }, validate: z.string().min(1) }, { description: "The Pulumi resource name." }),
};

/** The hidden `autoNamed` input of kinds whose names may be derived. */
export const AUTO_NAMED = {
  autoNamed: optional({ type: { kind: "boolean" }, validate: z.boolean() }, { description: "True when the name was derived." }),
};
