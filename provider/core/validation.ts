import { z } from "zod";
import { isDuration, parseDuration } from "./deadline";
import { type CheckFailure, describeValue, issuesToFailures } from "./check-failures";
import { UNKNOWN } from "./unknown";

export { type CheckFailure, describeValue } from "./check-failures";
export { isUnknown, UNKNOWN } from "./unknown";

/**
 * One problem a building block found. `message` follows the field name, e.g.
 * `must be an integer between 0 and 1000, got 2.5`.
 */
interface BlockIssue {
  message: string;
  /** Path below the field, e.g. the label key. @default [] */
  path?: string[];
  /** `mapEntry`: the last path segment is a map key; `mapKey`: the key itself is invalid. */
  params?: { mapEntry?: true; mapKey?: true };
}

type Verdict<T> = { ok: true; value: T } | { ok: false; issues: BlockIssue[] };

function fail<T>(message: string): Verdict<T> {
  return { ok: false, issues: [{ message }] };
}

/**
 * Builds a schema from a verifier. The sentinel passes untouched, typed as `T`: callers look at
 * `isUnknown` before acting on inputs, which only preview produces.
 */
function block<T>(verify: (value: unknown) => Verdict<T>): z.ZodType<T, unknown> {
  const schema = z.unknown().transform((value, ctx) => {
    if (value === UNKNOWN) return value as T;
    const verdict: Verdict<T> = value === undefined ? fail("is required") : verify(value);
    if (verdict.ok) return verdict.value;
    for (const issue of verdict.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path ?? [], params: issue.params, input: value });
    }
    return z.NEVER;
  });
  return schema as unknown as z.ZodType<T, unknown>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SEMVER = /^v?((0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))$/;

/** Options of {@link dnsLabel}. */
export interface DnsLabelOptions {
  /** The longest allowed name. @default 63 */
  maxLength?: number;
}

/** A DNS-1123 label: lowercase alphanumerics and '-', starting and ending alphanumeric. */
export function dnsLabel(options: DnsLabelOptions = {}): z.ZodType<string, unknown> {
  const max = options.maxLength ?? 63;
  return block((v) =>
    typeof v === "string" && v.length <= max && DNS_LABEL.test(v)
      ? { ok: true, value: v }
      : fail(
          `must be a DNS-1123 label: 1 to ${max} lowercase letters, digits or '-', starting and ending with a letter or digit, got ${describeValue(v)}`,
        ),
  );
}

/** A version `MAJOR.MINOR.PATCH`, optionally with a leading "v", which is stripped. */
export function semver(): z.ZodType<string, unknown> {
  return block((v) => {
    const match = typeof v === "string" ? SEMVER.exec(v) : null;
    return match
      ? { ok: true, value: match[1] }
      : fail(`must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed), got ${describeValue(v)}`);
  });
}

const VERSION_PREFIX = /^v?(\d+(?:\.\d+){0,2})(?:\.[x*])?\.?$/;

/**
 * The start of a version, `MAJOR`, `MAJOR.MINOR` or a whole `MAJOR.MINOR.PATCH`: `1.31` names the 1.31
 * line. A leading "v", and a trailing "." or ".x" (`1.31.x`, which Pulumi YAML keeps a string where it
 * turns stack config `1.30` into the number 1.3), are allowed and stripped.
 */
export function versionPrefix(): z.ZodType<string, unknown> {
  return block((v) => {
    const match = typeof v === "string" ? VERSION_PREFIX.exec(v) : null;
    if (match) return { ok: true, value: match[1] };
    const hint = typeof v === "number" ? ` (a number: write the line as a string, "1.30" or "1.30.x"; 1.30 as a number is 1.3)` : "";
    return fail(`must be the start of a version, MAJOR or MAJOR.MINOR such as "1.31" or "1.31.x", got ${describeValue(v)}${hint}`);
  });
}

/** Whether `version` is in the line `prefix` names (whole components: `1.3` is not the start of `1.31.0`). */
export function inVersionLine(version: string, prefix: string): boolean {
  return version === prefix || version.startsWith(`${prefix}.`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID as the platforms print them (lowercase hex, 8-4-4-4-12). */
export function uuid(): z.ZodType<string, unknown> {
  return block((v) =>
    typeof v === "string" && UUID.test(v) ? { ok: true, value: v } : fail(`must be a UUID such as "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d", got ${describeValue(v)}`),
  );
}

/** An integer in [min, max]. */
export function intInRange(min: number, max: number): z.ZodType<number, unknown> {
  return block((v) =>
    typeof v === "number" && Number.isInteger(v) && v >= min && v <= max
      ? { ok: true, value: v }
      : fail(`must be an integer between ${min} and ${max}, got ${describeValue(v)}`),
  );
}

/** One of the given strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodType<T[number], unknown> {
  const allowed = values.map((s) => JSON.stringify(s));
  const list = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
  return block((v) =>
    typeof v === "string" && values.includes(v)
      ? { ok: true, value: v as T[number] }
      : fail(`must be one of ${list}, got ${describeValue(v)}`),
  );
}

/**
 * A duration of whole seconds between `minSeconds` and `maxSeconds`, kept as written: for a
 * platform field in seconds (`drain_timeout_seconds`) that users write like every other timeout.
 */
export function secondsDuration(minSeconds: number, maxSeconds: number): z.ZodType<string, unknown> {
  return block((v) => {
    const ms = typeof v === "string" && isDuration(v) ? parseDuration(v) : Number.NaN;
    return ms % 1000 === 0 && ms >= minSeconds * 1000 && ms <= maxSeconds * 1000
      ? { ok: true, value: (v as string).trim() }
      : fail(`must be a duration of whole seconds from ${minSeconds}s to ${maxSeconds}s, such as "90s", "5m" or "1h30m", got ${describeValue(v)}`);
  });
}

/** A duration string such as `90s`, `20m`, `1h30m`; kept as written. */
export function durationString(): z.ZodType<string, unknown> {
  return block((v) =>
    typeof v === "string" && isDuration(v)
      ? { ok: true, value: v.trim() }
      : fail(`must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got ${describeValue(v)}`),
  );
}

const LABEL_KEY_RULE =
  'must be a Kubernetes label key: an optional DNS subdomain prefix of at most 253 characters and "/", then a name of 1 to 63 letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit';
const LABEL_VALUE_RULE =
  "must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";

/** True when `key` is a valid Kubernetes label key (`[prefix/]name`). */
export function isLabelKey(key: string): boolean {
  const parts = key.split("/");
  if (parts.length > 2) return false;
  const name = parts.at(-1)!;
  const prefixOk = parts.length === 1 || (parts[0].length <= 253 && DNS_SUBDOMAIN.test(parts[0]));
  return prefixOk && name.length <= 63 && LABEL_NAME.test(name);
}

/** True when `value` is a valid Kubernetes label value (may be empty). */
export function isLabelValue(value: unknown): boolean {
  return typeof value === "string" && (value === "" || (value.length <= 63 && LABEL_NAME.test(value)));
}

/** A Kubernetes label map: label keys to label values. Entry values may be unknown. */
export function labelMap(): z.ZodType<Record<string, string>, unknown> {
  return block((v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return fail(`must be a map of label keys to string values, got ${describeValue(v)}`);
    }
    const issues: BlockIssue[] = [];
    for (const [key, value] of Object.entries(v)) {
      if (!isLabelKey(key)) issues.push({ message: LABEL_KEY_RULE, path: [key], params: { mapKey: true } });
      if (value !== UNKNOWN && !isLabelValue(value)) {
        issues.push({ message: `${LABEL_VALUE_RULE}, got ${describeValue(value)}`, path: [key], params: { mapEntry: true } });
      }
    }
    return issues.length === 0 ? { ok: true, value: v as Record<string, string> } : { ok: false, issues };
  });
}

/**
 * Lets the sentinel stand for a whole value of any other schema (an object, a list, a boolean).
 * Issues of `schema` pass through with their paths.
 */
export function orUnknown<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, unknown> {
  const wrapped = z.unknown().transform((value, ctx) => {
    if (value === UNKNOWN) return value as z.output<S>;
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) return result.data as z.output<S>;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
  return wrapped as unknown as z.ZodType<z.output<S>, unknown>;
}

/** What {@link validateInputs} returns: `inputs` when valid, else the check failures. */
export interface ValidationResult<T> {
  /** The parsed, normalized inputs; absent when there are failures. */
  inputs?: T;
  /** One entry per problem, in the form Pulumi's `check` returns. */
  failures: CheckFailure[];
}

/**
 * Validates raw resource inputs against `schema` and turns every zod issue into a check failure
 * naming the user's field, the value received and what is allowed.
 * @param secrets - strings blanked out of the reasons. @default []
 */
export function validateInputs<T>(
  schema: z.ZodType<T, unknown>,
  raw: unknown,
  secrets: readonly string[] = [],
): ValidationResult<T> {
  const result = schema.safeParse(raw, { reportInput: true });
  if (result.success) return { inputs: result.data, failures: [] };
  return { failures: issuesToFailures(result.error.issues, secrets) };
}
