import { createHash } from "node:crypto";
import { z } from "zod";
import { OWNER_LABEL_KEY } from "../../core/naming";
import { describeValue, UNKNOWN } from "../../core/validation";
import { optional, required, type Value, v } from "../../core/definition/values";

// What Senlin's profiles and policies share: a typed spec (`{type, version, properties}`) that never
// changes once created, a name that does, and derived names and identities built from the spec.

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A custom check that lets the preview's unknown sentinel through: `rule` is the failure's text before `, got <value>`. */
export function checked<T>(accept: (value: unknown) => boolean, rule: string): z.ZodType<T, unknown> {
  return z.unknown().transform((value, ctx) => {
    if (value === UNKNOWN || accept(value)) return value as T;
    ctx.addIssue({ code: "custom", message: value === undefined ? "is required" : `${rule}, got ${describeValue(value)}`, input: value });
    return z.NEVER;
  }) as unknown as z.ZodType<T, unknown>;
}

// Senlin's plugin types are dotted lower-case words (`os.nova.server`, `senlin.policy.region_placement`).
const TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const VERSION = /^\d+\.\d+$/;

const typeValue = (what: string) =>
  v.custom<string>(
    { kind: "string" },
    checked((value) => typeof value === "string" && value.length <= 255 && TYPE.test(value), `must be a ${what} type: dotted lower-case words such as ${what === "profile" ? '"os.nova.server"' : '"senlin.policy.deletion"'}`),
  );

const versionValue = v.custom<string | number>(
  { kind: "stringOrNumber" },
  checked(
    (value) => (typeof value === "string" && VERSION.test(value)) || (typeof value === "number" && Number.isFinite(value) && value >= 0),
    'must be a plugin version such as "1.0" (a "major.minor" string or a number)',
  ),
);

const jsonObject = () => checked<Record<string, unknown>>(isObject, "must be an object of keys to JSON values");

/** The `spec` value of a profile or policy: Senlin's `{type, version, properties}`. */
export function typedSpec(what: "profile" | "policy", example: string): Value<{ type: string; version: string | number; properties?: Record<string, unknown> }> {
  const name = what === "profile" ? "ProfileSpec" : "PolicySpec";
  return v.object(name, `A Senlin ${what} spec: the plugin type and version and its properties, e.g. ${example}.`, {
    type: required(typeValue(what), {
      description: `The ${what} type: dotted lower-case words, e.g. ${what === "profile" ? "`os.nova.server`" : "`senlin.policy.deletion`"}.`,
      example: what === "profile" ? "os.nova.server" : "senlin.policy.deletion",
    }),
    version: required(versionValue, { description: 'The type\'s version: a `"major.minor"` string or a number, e.g. `"1.0"`.', example: "1.0" }),
    properties: optional(v.custom({ kind: "map", of: { kind: "json" } }, jsonObject()), { description: "The type's properties.", default: "{}" }),
  });
}

/** User metadata: any JSON object whose ownership key is left to Clusterform. */
export const userMetadata = () =>
  v.custom<Record<string, unknown>>(
    { kind: "map", of: { kind: "json" } },
    jsonObject().superRefine((metadata, ctx) => {
      if (isObject(metadata) && Object.hasOwn(metadata, OWNER_LABEL_KEY)) {
        ctx.addIssue({
          code: "custom",
          path: [OWNER_LABEL_KEY],
          message: `is reserved: Clusterform sets ${OWNER_LABEL_KEY} to mark the profiles it created, got ${describeValue(metadata[OWNER_LABEL_KEY])}`,
          params: { mapKey: true },
        });
      }
    }),
  );

/** The JSON of a value with object keys sorted, so that equal specs compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A spec as Senlin compares it: the version as text (Senlin reads `1` and `"1.0"` alike) and absent
 * properties as `{}`.
 */
export function normalSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const version = typeof spec.version === "number" ? spec.version.toFixed(1) : spec.version;
  return { ...spec, version, properties: spec.properties ?? {} };
}

/** True when two specs are the same once normalized. */
export function sameSpec(a: unknown, b: unknown): boolean {
  return isObject(a) && isObject(b) && canonicalJson(normalSpec(a)) === canonicalJson(normalSpec(b));
}

/** A short digest of a spec: the part of a profile's or policy's identity that a replacement changes. */
export function specDigest(spec: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson(normalSpec(spec))).digest("hex").slice(0, 12);
}

/** The identity of a profile: its owner and spec (a replacement always has a new spec). */
export function profileIdentity(owner: unknown, spec: unknown): string | undefined {
  if (typeof owner !== "string" || owner === "" || typeof spec !== "object" || spec === null) return undefined;
  return `owner ${owner} spec ${specDigest(spec as Record<string, unknown>)}`;
}

/** The identity of a policy: its name and spec (Senlin keeps no ownership marker on policies). */
export function policyIdentity(name: unknown, spec: unknown): string | undefined {
  if (typeof name !== "string" || name === "" || typeof spec !== "object" || spec === null) return undefined;
  return `name ${name} spec ${specDigest(spec as Record<string, unknown>)}`;
}
