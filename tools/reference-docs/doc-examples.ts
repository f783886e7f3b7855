/**
 * Reads the programs that documents show (fenced code blocks) and checks a Pulumi YAML program
 * against a package schema: every resource type token exists, every property is an input of that
 * resource, and every value has the input's type, through object types, lists, maps and enums.
 * The tests use it on the README's starts and on every reference page's YAML example.
 *
 * Pure, like render.ts beside it: only `node:` modules and type annotations that can be erased.
 */
import type { PackageSpec, PropertySpec } from "./render.ts";

/** The contents of every fenced block of the given language (```lang), in order. */
export function codeBlocks(markdown: string, lang: string): string[] {
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...markdown.matchAll(fence)].map((m) => m[1]);
}

/** The text of a section: from its heading (any level) to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, "") === heading);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = /^#+/.exec(lines[start])![0].length;
  let inFence = false;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].startsWith("```")) inFence = !inFence;
    const m = inFence ? null : /^(#+) /.exec(lines[i]);
    if (m && m[1].length <= level) {
      end = i;
      break;
    }
  }
  return lines.slice(start, end).join("\n");
}

/**
 * The files a section lays out: every fenced block introduced by a line that starts with the file's
 * name in backticks and ends with a colon (`` `index.ts`: ``, `` `package.json` (why): ``).
 */
export function sectionFiles(markdown: string, heading: string): Record<string, string> {
  const files: Record<string, string> = {};
  const text = section(markdown, heading);
  for (const m of text.matchAll(/^`([^`\s]+)`[^\n]*:\n\n```[a-z]*\n([\s\S]*?)^```$/gm)) files[m[1]] = m[2];
  return files;
}

/** Pulumi YAML's interpolation: a value that is `${...}` alone is whatever it refers to. */
const INTERPOLATION = /^\$\{[^}]+\}$/;

/** What is wrong with one value against a schema property, as `path: problem` lines. */
function valueProblems(schema: PackageSpec, at: string, p: PropertySpec, value: unknown, depth = 0): string[] {
  if (typeof value === "string" && INTERPOLATION.test(value)) return [];
  if (depth > 16) return [`${at}: nested too deep`];
  if (p.$ref?.startsWith("pulumi.json#/")) return [];
  if (p.$ref) {
    const token = p.$ref.replace(/^#\/types\//, "");
    const type = schema.types?.[token];
    if (!type) return [`${at}: the schema has no type ${token}`];
    if (type.enum) {
      const allowed = type.enum.map((e) => e.value);
      return allowed.includes(value) ? [] : [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(allowed)}`];
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: expected an object (${token})`];
    const fields = type.properties ?? {};
    const missing = (type.required ?? []).filter((f) => !(f in value)).map((f) => `${at}: required field "${f}" missing`);
    return [
      ...missing,
      ...Object.entries(value).flatMap(([k, v]) =>
        fields[k] ? valueProblems(schema, `${at}.${k}`, fields[k], v, depth + 1) : [`${at}: ${token} has no field "${k}"`],
      ),
    ];
  }
  switch (p.type) {
    case "string":
      return typeof value === "string" ? [] : [`${at}: expected a string, got ${JSON.stringify(value)}`];
    case "integer":
      return Number.isInteger(value) ? [] : [`${at}: expected an integer, got ${JSON.stringify(value)}`];
    case "number":
      return typeof value === "number" ? [] : [`${at}: expected a number, got ${JSON.stringify(value)}`];
    case "boolean":
      return typeof value === "boolean" ? [] : [`${at}: expected a boolean, got ${JSON.stringify(value)}`];
    case "array":
      if (!Array.isArray(value)) return [`${at}: expected a list`];
      return value.flatMap((v, i) => valueProblems(schema, `${at}[${i}]`, p.items ?? {}, v, depth + 1));
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: expected a map`];
      return Object.entries(value).flatMap(([k, v]) => valueProblems(schema, `${at}.${k}`, p.additionalProperties ?? {}, v, depth + 1));
    default:
      return [];
  }
}

/** A Pulumi YAML program, parsed: the parts the check reads. */
export interface YamlProgram {
  config?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  resources?: Record<string, { type?: string; properties?: Record<string, unknown> }>;
}

/**
 * What is wrong with a parsed YAML program's resources of the schema's package: an unknown type
 * token, a property the resource does not take, a value of the wrong type, a required input
 * missing, a `${name}` that names neither a config value, a variable nor a resource. Resources of
 * other packages are left alone. Empty when the program fits the schema.
 */
export function yamlProgramProblems(schema: PackageSpec, program: YamlProgram): string[] {
  const problems: string[] = [];
  const known = new Set([...Object.keys(program.config ?? {}), ...Object.keys(program.variables ?? {}), ...Object.keys(program.resources ?? {})]);
  const walk = (at: string, value: unknown) => {
    if (typeof value === "string") {
      for (const m of value.matchAll(/\$\{([^}.[]+)[^}]*\}/g)) {
        if (!known.has(m[1])) problems.push(`${at}: \${${m[1]}} names no config value, variable or resource`);
      }
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(`${at}.${k}`, v);
    }
  };
  for (const [name, resource] of Object.entries(program.resources ?? {})) {
    const token = resource.type ?? "";
    if (!token.startsWith(`${schema.name}:`)) continue;
    const spec = schema.resources?.[token];
    if (!spec) {
      problems.push(`${name}: the schema has no resource type ${token}`);
      continue;
    }
    const inputs = spec.inputProperties ?? {};
    const given = resource.properties ?? {};
    for (const required of spec.requiredInputs ?? []) {
      if (!(required in given)) problems.push(`${name}: required input "${required}" missing`);
    }
    for (const [key, value] of Object.entries(given)) {
      if (!inputs[key]) problems.push(`${name}: ${token} has no input "${key}"`);
      else problems.push(...valueProblems(schema, `${name}.${key}`, inputs[key], value));
      walk(`${name}.${key}`, value);
    }
  }
  return problems;
}
