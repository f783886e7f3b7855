import { z } from "zod";
import { COMMON_IGNORED, type FieldPolicy, type PolicyTable } from "../planner";
import { durationString, orUnknown } from "../validation";
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

/** Everything a kind is, written once. */
export interface KindSpec<Fs extends Fields, Hs extends Fields> {
  /** `<platform>:<Kind>`, e.g. `cmassh:NodePool`: the dynamic type, and the native token's tail. */
  type: string;
  /** What the resource is and how it changes, for every SDK and the reference. */
  description: string;
  /** The user's inputs, each with its change policy. */
  inputs: Fs;
  /** Inputs the SDK or the provider adds (ownership marker, derived names and ids): never written by users. */
  hidden: Hs;
  /** Outputs beyond the inputs. */
  outputs: Readonly<Record<string, OutputField>>;
  /** Checks across fields (zod superRefine over the validated inputs). */
  refine?: (inputs: ValuesOf<Fs> & ValuesOf<Hs>, ctx: z.RefinementCtx) => void;
  /** Default time limits; every kind takes a `timeouts` input. */
  timeouts: TimeoutDefaults;
  importId?: ImportId;
  /**
   * The order of a replacement when the program does not set `deleteBeforeReplace`: create-first for
   * objects the platform refuses to delete while others use them (a Senlin profile a cluster is built
   * from), whose identity a replacement always changes. @default "delete-first"
   */
  replaceOrder?: "create-first" | "delete-first";
}

/** Validated `timeouts`. */
export interface Timeouts {
  create?: string;
  update?: string;
  delete?: string;
}

/** A defined kind: the spec plus what derives from it for the kit. */
export interface Kind<Fs extends Fields = Fields, Hs extends Fields = Fields> extends KindSpec<Fs, Hs> {
  /** The user-facing inputs plus `timeouts`. */
  readonly allInputs: Readonly<Record<string, Field>>;
  /** Validates and normalizes inputs (hidden ones included): strict, unknown keys refused. */
  readonly schema: z.ZodType<InputsOf<Fs, Hs>, unknown>;
  /** The field-policy table the planner reads: every input's policy, hidden ones ignored. */
  readonly policies: PolicyTable;
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
 * Defines a resource kind from its fields, each written once. The zod schema, the policy table, the
 * TypeScript input type, the SDK classes, the package schema and the reference docs all derive from
 * it (provider/core/definition/*-gen.ts, `npm run generate:schema`).
 * @throws Error when a user input has no change policy (every field must say how it changes).
 */
export function defineKind<Fs extends Fields, Hs extends Fields>(spec: KindSpec<Fs, Hs>): Kind<Fs, Hs> {
  const missing = Object.entries(spec.inputs).filter(([, f]) => f.policy === undefined);
  if (missing.length > 0) throw new Error(`${spec.type}: inputs without a change policy: ${missing.map(([k]) => k).join(", ")}`);
  const allInputs: Record<string, Field> = { ...spec.inputs, timeouts: timeoutsField(spec.timeouts) };
  const base = objectSchema({ ...spec.hidden, ...allInputs });
  const schema = (spec.refine ? base.superRefine(spec.refine as never) : base) as unknown as z.ZodType<InputsOf<Fs, Hs>, unknown>;
  const policies: Record<string, FieldPolicy> = { ...COMMON_IGNORED };
  for (const key of Object.keys(spec.hidden)) policies[key] = { kind: "ignore" };
  for (const [key, f] of Object.entries(allInputs)) policies[key] = f.policy as FieldPolicy;
  return { ...spec, allInputs, schema, policies };
}

/** The hidden inputs every kind has: the ownership marker and the Pulumi resource name. */
export const OWNERSHIP = {
  owner: required({ type: { kind: "string" }, validate: z.string().min(1) }, { description: "The ownership marker." }),
  resourceName: required({ type: { kind: "string" }, validate: z.string().min(1) }, { description: "The Pulumi resource name." }),
};

/**
 * The hidden `adoptInUse` input of kinds whose create adopts only an object nothing uses yet (Senlin
 * profiles and policies: one in use was recorded in a state before its user could learn its id,
 * so it is the object a `pulumi up --replace` replaces, not a leftover). OpenTofu records a state
 * only when an apply ends: a killed apply may have made both the object and its user, so its
 * adapter sets this, and create adopts the object even in use.
 */
export const ADOPT_IN_USE = {
  adoptInUse: optional({ type: { kind: "boolean" }, validate: z.boolean() }, { description: "True when an object in use may be adopted." }),
};

/** The hidden `autoNamed` input of kinds whose names may be derived. */
export const AUTO_NAMED = {
  autoNamed: optional({ type: { kind: "boolean" }, validate: z.boolean() }, { description: "True when the name was derived." }),
};

/** The input fields of a kind whose values force a replacement, in definition order. */
export function replaceFieldsOf(kind: Kind): string[] {
  return Object.entries(kind.allInputs)
    .filter(([, f]) => f.policy?.kind === "replace")
    .map(([key]) => key);
}
