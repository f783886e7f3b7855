import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { getAsset, isSea } from "node:sea";

/**
 * GetProviderSchema's answer, written as JSON beside the bundle by `npm run build`
 * (tools/bundle/terraform-provider.mjs): the first provider process of every tofu command asks for
 * it, and reading it costs a file read instead of loading all ten kinds' definitions and zod.
 * Only the bundle reads it (it is written by the same build step, from the same definitions); a
 * bare `tsc` build runs main.js, which computes the answer.
 */
export const SCHEMA_FILE = "provider-schema.json";

/** The answer as JSON: the attribute types (bytes of cty JSON) as their text, the schema versions (int64) as decimal text. */
export function schemaToJson(answer: unknown): string {
  return JSON.stringify(answer, (_key, value) =>
    value instanceof Uint8Array ? { cty: new TextDecoder().decode(value) } : typeof value === "bigint" ? { int64: value.toString() } : value,
  );
}

/** The answer back from {@link schemaToJson}'s text. */
export function schemaFromJson(text: string): Record<string, unknown> {
  const only = (value: unknown, key: string) => value !== null && typeof value === "object" && Object.keys(value).length === 1 && typeof (value as Record<string, unknown>)[key] === "string";
  return JSON.parse(text, (_key, value) => (only(value, "cty") ? new TextEncoder().encode(value.cty) : only(value, "int64") ? BigInt(value.int64) : value));
}

/**
 * The stored answer when this process runs from the bundle and the build wrote one, or from the
 * release's single executable, which carries it as an asset (tools/release/sea/programs.ts).
 */
export function storedSchema(entry = process.argv[1] ?? ""): Record<string, unknown> | undefined {
  if (isSea()) return schemaFromJson(getAsset(SCHEMA_FILE, "utf8"));
  if (path.basename(entry) !== "bundle.cjs") return undefined;
  const file = path.join(path.dirname(entry), SCHEMA_FILE);
  return existsSync(file) ? schemaFromJson(readFileSync(file, "utf8")) : undefined;
}
