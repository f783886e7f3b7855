import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";
import type { z } from "zod";
import type { PlatformModule } from "../platform";

/** A seed file's sections by API name, each validated by its platform's schema. */
export type SeedSections = ReadonlyMap<string, unknown>;

/** Thrown for a seed file that cannot be used; the message names the file, the field and what is allowed. */
export class SeedFileError extends Error {}

function describe(issue: z.core.$ZodIssue, api: string): string {
  const path = [api, ...issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p)))].join(".").replace(/\.\[/g, "[");
  return `field "${path}": ${issue.message}`;
}

/**
 * Reads and checks a seed file (YAML, of which JSON is a part): a mapping whose keys are platform
 * names (`cmassh`, `cyclecloud`, `senlin`, `peloton`, `vcluster`), each section checked by that
 * platform's seed schema. Every problem found is named, with the file.
 */
export function readSeedFile(file: string, modules: readonly PlatformModule[]): SeedSections {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new SeedFileError(`invalid seed file "${file}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const [error] = doc.errors;
    const at = error.linePos?.[0] ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : "";
    throw new SeedFileError(`invalid seed file "${file}": not YAML or JSON${at}: ${error.message.split("\n")[0]}`);
  }
  const root: unknown = doc.toJS();
  if (root === null || root === undefined) return new Map();
  if (typeof root !== "object" || Array.isArray(root)) throw new SeedFileError(`invalid seed file "${file}": expected a mapping of platform names to their objects`);
  const seeding = new Map(modules.filter((m) => m.seed).map((m) => [m.api, m] as const));
  const problems: string[] = [];
  const sections = new Map<string, unknown>();
  for (const [api, section] of Object.entries(root)) {
    const module = seeding.get(api);
    if (!module?.seed) {
      problems.push(`field "${api}": not a platform that takes seeds; allowed: ${[...seeding.keys()].join(", ")}`);
      continue;
    }
    const result = module.seed.schema.safeParse(section ?? {});
    if (result.success) sections.set(api, result.data);
    else problems.push(...result.error.issues.map((issue) => describe(issue, api)));
  }
  if (problems.length > 0) throw new SeedFileError(`invalid seed file "${file}": ${problems.join("; ")}`);
  return sections;
}
