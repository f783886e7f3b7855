import { z } from "zod";
import { badRequest } from "./errors";

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

const NAME = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;

/** An object name: starts with an ASCII letter; letters, digits, `_ . -`; at most 255 characters. */
export const nameField = z
  .string()
  .max(255)
  .regex(NAME, "must start with an ASCII letter and hold only letters, digits, '_', '.' or '-'");

function describe(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String);
  let value: unknown = input;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  if (issue.code === "unrecognized_keys") return `Additional properties are not allowed (${issue.keys.map((k) => `'${k}'`).join(", ")} unexpected)`;
  const field = path.length > 0 ? `'${path.join(".")}'` : "the body";
  const shown = value === undefined ? "missing" : JSON.stringify(value);
  return `Invalid value for ${field}: ${shown}: ${issue.message}`;
}

/**
 * Parses a request object with a schema.
 * @throws SenlinError 400 naming the field, the value received and what is allowed.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw badRequest(result.error.issues.map((issue) => describe(issue, input)).join("; "));
}
