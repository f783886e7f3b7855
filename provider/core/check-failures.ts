import type { z } from "zod";
import { redact } from "./errors";

/** One failed input, as Pulumi's `check` reports it. */
export interface CheckFailure {
  /** The user's field path, e.g. `controlPlane.count` or `labels["app"]`. */
  property: string;
  /** What is wrong: the field, the value received, what is allowed. */
  reason: string;
}

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_VALUE_CHARS = 80;

/** Renders a received value for a message: strings quoted, long values cut. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}...` : text;
}

/** Formats a path the way the user wrote it; `mapEntry` marks the last segment as a map key. */
export function formatPath(path: readonly Segment[], mapEntry = false): string {
  return path
    .map((seg, i) => {
      if (typeof seg === "number") return `[${seg}]`;
      const key = String(seg);
      if ((mapEntry && i === path.length - 1) || !IDENTIFIER.test(key)) return `[${JSON.stringify(key)}]`;
      return i === 0 ? key : `.${key}`;
    })
    .join("");
}

/**
 * The name a reason starts with: the whole path as the user wrote it (`controlPlane.count`,
 * `labels["app"]`), since Pulumi prints only top-level values next to a failure.
 */
function fieldName(path: readonly Segment[], mapEntry: boolean): string {
  return path.length === 0 ? "inputs" : formatPath(path, mapEntry);
}

function list(values: readonly unknown[]): string {
  const parts = values.map((v) => describeValue(v));
  return parts.length <= 1 ? (parts[0] ?? "nothing") : `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

const SIZE_UNITS: Readonly<Record<string, string>> = { string: " characters", array: " items", set: " items" };

/** Reason text per zod issue code, for schemas written with plain zod rather than our blocks. */
const REASONS: { [C in Issue["code"]]?: (issue: Extract<Issue, { code: C }>, name: string) => string } = {
  invalid_type: (i, name) =>
    i.input === undefined
      ? `${name} is required`
      : `${name} must be ${article(i.expected)} ${i.expected}, got ${describeValue(i.input)}`,
  invalid_value: (i, name) => `${name} must be one of ${list(i.values)}, got ${describeValue(i.input)}`,
  too_small: (i, name) =>
    `${name} must be at least ${String(i.minimum)}${SIZE_UNITS[i.origin] ?? ""}, got ${describeValue(i.input)}`,
  too_big: (i, name) =>
    `${name} must be at most ${String(i.maximum)}${SIZE_UNITS[i.origin] ?? ""}, got ${describeValue(i.input)}`,
  invalid_format: (i, name) => `${name} must be a valid ${i.format}, got ${describeValue(i.input)}`,
  custom: (i, name) => `${name} ${i.message}`,
};

function toFailures(issue: Issue): CheckFailure[] {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      property: formatPath([...path, key]),
      reason: `${fieldName([...path, key], false)} is not a known field`,
    }));
  }
  const params = issue.code === "custom" ? (issue.params ?? {}) : {};
  const mapEntry = params.mapEntry === true || params.mapKey === true;
  const property = formatPath(path, mapEntry);
  const name = params.mapKey
    ? `${fieldName(path.slice(0, -1), false)} key ${JSON.stringify(String(path.at(-1)))}`
    : fieldName(path, mapEntry);
  const reason = REASONS[issue.code] as ((i: Issue, n: string) => string) | undefined;
  return [{ property, reason: reason ? reason(issue, name) : `${name}: ${issue.message}` }];
}

/**
 * Turns zod issues into check failures. Custom issue messages are phrased to follow the field
 * name ("must be ...").
 */
export function issuesToFailures(issues: readonly Issue[], secrets: readonly string[] = []): CheckFailure[] {
  return issues.flatMap(toFailures).map((f) => ({ property: f.property, reason: redact(f.reason, secrets) }));
}
