import { z } from "zod";
import { httpBadRequest } from "./errors";

/** An integer, also accepted as a string of digits, as Senlin's integer fields coerce. */
export const intField = (min: number) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min));

/** A boolean, also accepted as Senlin's boolean strings. */
export const boolField = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const text = v.toLowerCase();
  if (["true", "t", "yes", "y", "on", "1"].includes(text)) return true;
  if (["false", "f", "no", "n", "off", "0"].includes(text)) return false;
  return v;
}, z.boolean());

/** A free-form JSON object. */
export const objectField = z.record(z.string(), z.unknown());

/** Senlin's `Name` field: ASCII letters, digits, CJK ideographs and `. _ ~ -`, any of them first (its message says otherwise). */
const NAME = /^[a-zA-Z\u4e00-\u9fa5\d._~-]+$/;

/** An object name: 1 to 255 characters of {@link NAME}, as Senlin 14 checks it. */
export const nameField = z
  .string()
  .min(1)
  .max(255)
  .regex(NAME, 'contains illegal characters. It must contain only alphanumeric or "_-.~" characters and must start with letter.');

function describe(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String);
  let value: unknown = input;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  // jsonschema's wording, which Senlin's schema check passes through.
  if (issue.code === "unrecognized_keys") {
    return `Additional properties are not allowed (${issue.keys.map((k) => `'${k}'`).join(", ")} ${issue.keys.length === 1 ? "was" : "were"} unexpected)`;
  }
  const field = path.length > 0 ? `'${path.join(".")}'` : "the body";
  // jsonschema's wording for a required field that is not there.
  if (value === undefined && path.length > 0) return `'${path.at(-1)}' is a required property`;
  const shown = value === undefined ? "missing" : JSON.stringify(value);
  return `Invalid value for ${field}: ${shown}: ${issue.message}`;
}

/**
 * Senlin's request objects declare their optional fields nullable, and the real clients send an
 * explicit `null` for every option left unset (openstackclient on cluster create, expand, shrink,
 * update): `null` is "not given". Only the top level: a null inside `metadata` stays data.
 */
function withoutNulls(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/**
 * Parses a request object with a schema, `null` fields taken as absent (every route's body goes
 * through here, so the rule holds everywhere at once).
 * @throws SenlinError 400 naming the field, the value received and what is allowed.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const given = withoutNulls(input);
  const result = schema.safeParse(given);
  if (result.success) return result.data;
  throw httpBadRequest(result.error.issues.map((issue) => describe(issue, given)).join("; "));
}
