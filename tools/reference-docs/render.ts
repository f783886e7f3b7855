/**
 * Renders the reference pages of a Pulumi package schema: one Markdown page per resource (inputs,
 * outputs, defaults, secrets, the change policy of each input, the fields of the object types they
 * use, the import id, examples in TypeScript, YAML and Go), one for the provider's configuration,
 * and an index.
 *
 * Pure: schema in, pages out. `cli.mjs` beside it reads the schema and writes or checks the files.
 * Only `node:` modules and type annotations that can be erased, so Node runs it as it is.
 */

/** A property of a Pulumi package schema (the parts the pages use). */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  default?: unknown;
  secret?: boolean;
  replaceOnChanges?: boolean;
  /** `language.clusterform`: Clusterform's own annotations (see {@link ClusterformExtension}). */
  language?: Record<string, unknown>;
}

/**
 * What the schema generator records beyond Pulumi's format, under `language.clusterform` (the
 * place Pulumi's format leaves to each tool). On an input property: its change policy and, for an
 * in-place change, the platform operation that carries it out. On a resource: the shape of its
 * import id and its default time limits.
 */
export interface ClusterformExtension {
  /** `update`: changed in place; `replace`: a new object; `record`: in place in the state only; `ignore`: no platform call at all. */
  kind?: "update" | "replace" | "record" | "ignore";
  operation?: string;
  /** Why the input changes the way it does, or how its call is made (e.g. the update mask it goes in). */
  note?: string;
  /** The import id: its shape in words, an example, the inputs the platform cannot report. */
  importId?: { shape: string; example?: string; unreported?: string[] };
  timeouts?: Record<string, string>;
  /**
   * A value the examples use for an input instead of one derived from its type; an optional input
   * with an example is in the examples too.
   */
  example?: unknown;
}

/** A resource of a Pulumi package schema. */
export interface ResourceSpec {
  description?: string;
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
  properties?: Record<string, PropertySpec>;
  required?: string[];
  language?: Record<string, unknown>;
}

/** A function of a Pulumi package schema; `language.clusterform` names its kind and its data source. */
export interface FunctionSpec {
  description?: string;
  inputs?: { properties?: Record<string, PropertySpec>; required?: string[] };
  outputs?: { properties?: Record<string, PropertySpec>; required?: string[] };
  language?: Record<string, unknown>;
}

/** A named type (object or enum) of a Pulumi package schema. */
export interface TypeSpec {
  type?: string;
  description?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
  enum?: { name?: string; value: unknown; description?: string }[];
}

/** The parts of a Pulumi package schema the reference pages use. */
export interface PackageSpec {
  name: string;
  /** Functions (`clusterform:cmassh:getCluster`): the lookups, documented on their kind's page. */
  functions?: Record<string, FunctionSpec>;
  displayName?: string;
  version?: string;
  description?: string;
  config?: { variables?: Record<string, PropertySpec>; defaults?: string[] };
  provider?: ResourceSpec;
  resources?: Record<string, ResourceSpec>;
  types?: Record<string, TypeSpec>;
  language?: {
    nodejs?: { packageName?: string };
    go?: { importBasePath?: string };
  };
}

/** How the pages are rendered beyond what the schema says. */
export interface RenderOptions {
  /**
   * The module the TypeScript examples import the resources' classes from, e.g. `clusterform/native`
   * (the classes the npm package ships for the plugin). Default: the schema's Node.js package name,
   * the SDK Pulumi's own generator writes.
   */
  typescriptModule?: string;
}

/** One generated file: its path relative to the reference folder, and its text. */
export interface Page {
  file: string;
  text: string;
}

export const BANNER = "<!-- generated from the package schema by tools/reference-docs; do not edit by hand -->";

/** The token's parts: `clusterform:cmassh:NodePool` is package, module and kind. */
export function splitToken(token: string): { pkg: string; module: string; kind: string } {
  const parts = token.split(":");
  if (parts.length !== 3 || parts.some((p) => p === "")) {
    throw new Error(`resource token '${token}': expected <package>:<module>:<Kind>`);
  }
  return { pkg: parts[0], module: parts[1], kind: parts[2] };
}

/** `NodePool` becomes `node-pool`. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** `clusterName` becomes `ClusterName` (Go field names). */
export function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The page of a resource, relative to the reference folder. */
export function pageFile(token: string): string {
  const { module, kind } = splitToken(token);
  return `${module}-${kebab(kind)}.md`;
}

/** Pulumi's own types (`pulumi.json#/Any`, `/Archive`, `/Asset`), referenced by this prefix. */
const BUILTIN = "pulumi.json#/";

/** The type's name in a referenced type token (`#/types/clusterform:cmassh:Taint` gives `Taint`). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf(":") + 1);
}

export function lookupRef(schema: PackageSpec, ref: string): TypeSpec {
  const prefix = "#/types/";
  const type = ref.startsWith(prefix) ? schema.types?.[ref.slice(prefix.length)] : undefined;
  if (!type) throw new Error(`type reference '${ref}': not defined in the schema's types`);
  return type;
}

/** How a property's type reads in a table. */
export function typeText(p: PropertySpec): string {
  if (p.$ref?.startsWith(BUILTIN)) return p.$ref.slice(BUILTIN.length).toLowerCase();
  if (p.$ref) return refName(p.$ref);
  if (p.type === "array") return `list of ${p.items ? typeText(p.items) : "any"}`;
  if (p.type === "object") return `map of ${p.additionalProperties ? typeText(p.additionalProperties) : "any"}`;
  return p.type ?? "any";
}

/** A table cell: one line, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\r?\n+/g, " ").replace(/\|/g, "\\|").trim();
}

/** The first paragraph of a description. */
export function summary(text: string | undefined): string {
  return (text ?? "").split(/\n\s*\n/)[0].trim();
}

export function clusterform(p: { language?: Record<string, unknown> }): ClusterformExtension {
  return (p.language?.clusterform as ClusterformExtension | undefined) ?? {};
}

/** How an input's change is carried out, as the inputs table says it, by its annotated kind. */
const POLICY_TEXT: Record<string, (ext: ClusterformExtension) => string> = {
  replace: () => "replace",
  update: (ext) => (ext.operation ? `in place (\`${ext.operation}\`)` : "in place"),
  ignore: () => "no platform call",
  record: () => "in place, in the state only (no platform call)",
};

function policyText(input: PropertySpec, output: PropertySpec | undefined): string {
  const ext = clusterform(input);
  if (ext.kind && POLICY_TEXT[ext.kind]) return POLICY_TEXT[ext.kind](ext) + (ext.note ? `: ${ext.note}` : "");
  // Not annotated: Pulumi's own flag is all the schema says.
  return input.replaceOnChanges || output?.replaceOnChanges ? "replace" : "decided by the provider";
}

/** The sentence "Default: ...." of a description (the schema generator writes defaults there). */
const DEFAULT_SENTENCE = /(?:^|\s)Default: (.+?)\.(?=\s|$)/;

export function defaultText(p: PropertySpec): string {
  if (p.default !== undefined) return `\`${JSON.stringify(p.default)}\``;
  return DEFAULT_SENTENCE.exec(p.description ?? "")?.[1] ?? "";
}

/** A description without the sentence the default column shows. */
export function withoutDefault(p: PropertySpec): string {
  return (p.description ?? "").replace(DEFAULT_SENTENCE, "");
}

/** The import id: the resource's annotation, or the "import id is `...`" of its description. */
function importId(resource: ResourceSpec): ClusterformExtension["importId"] {
  const annotated = clusterform(resource).importId;
  if (annotated) return annotated;
  const shape = /import id(?: is|:)\s*(`[^`]+`)/i.exec(resource.description ?? "")?.[1];
  return shape ? { shape } : undefined;
}

/** The description without its "## Import" section, which the page's own Import section replaces. */
export function bodyOf(resource: ResourceSpec): string {
  return (resource.description ?? "").replace(/\n#+ Import\n[\s\S]*?(?=\n#+ |$)/, "").trim();
}

/** A language-neutral example value: what the three example languages each print. */
export type Example =
  | { kind: "string" | "number" | "integer" | "boolean"; value: string | number | boolean }
  | { kind: "enum"; type: string; value: unknown }
  | { kind: "list"; item: PropertySpec; values: Example[] }
  | { kind: "map"; item: PropertySpec; entries: [string, Example][] }
  | { kind: "object"; type: string; fields: [string, Example][] }
  | { kind: "secret"; config: string };

/** Example values by scalar type; strings name the property so the example reads sensibly. */
const SCALAR_EXAMPLES: Record<string, (name: string) => Example> = {
  string: (name) => ({ kind: "string", value: `my-${kebab(name)}` }),
  integer: () => ({ kind: "integer", value: 1 }),
  number: () => ({ kind: "number", value: 1 }),
  boolean: () => ({ kind: "boolean", value: true }),
};

export function exampleOf(schema: PackageSpec, name: string, p: PropertySpec, depth = 0): Example {
  if (depth > 8) throw new Error(`property '${name}': type nesting too deep for an example`);
  const given = clusterform(p).example;
  if (p.secret) return { kind: "secret", config: name };
  if (given !== undefined && p.type && p.type in SCALAR_EXAMPLES) {
    return { kind: p.type as "string", value: given as string };
  }
  if (p.$ref?.startsWith(BUILTIN)) return SCALAR_EXAMPLES.string(name);
  if (p.$ref) {
    const type = lookupRef(schema, p.$ref);
    if (type.enum) return { kind: "enum", type: refName(p.$ref), value: type.enum[0].value };
    const fields = (type.required ?? []).map(
      (f) => [f, exampleOf(schema, f, type.properties?.[f] ?? {}, depth + 1)] as [string, Example],
    );
    return { kind: "object", type: refName(p.$ref), fields };
  }
  if (p.type === "array") {
    const item = p.items ?? { type: "string" };
    return { kind: "list", item, values: [exampleOf(schema, name, item, depth + 1)] };
  }
  if (p.type === "object") {
    const item = p.additionalProperties ?? { type: "string" };
    return { kind: "map", item, entries: [["key", exampleOf(schema, "value", item, depth + 1)]] };
  }
  const scalar = SCALAR_EXAMPLES[p.type ?? ""];
  if (!scalar) throw new Error(`property '${name}': type '${p.type}' has no example value`);
  return scalar(name);
}

const pad = (depth: number) => "  ".repeat(depth);

function tsValue(e: Example, depth: number): string {
  switch (e.kind) {
    case "string":
    case "enum":
      return JSON.stringify(e.value);
    case "integer":
    case "number":
    case "boolean":
      return String(e.value);
    case "secret":
      return `config.requireSecret(${JSON.stringify(e.config)})`;
    case "list":
      return `[${e.values.map((v) => tsValue(v, depth)).join(", ")}]`;
    case "map":
      return tsObject(e.entries, depth, true);
    case "object":
      return tsObject(e.fields, depth, false);
  }
}

export function tsObject(fields: [string, Example][], depth: number, quoteKeys: boolean): string {
  if (fields.length === 0) return "{}";
  const lines = fields.map(([k, v]) => `${pad(depth + 1)}${quoteKeys ? JSON.stringify(k) : k}: ${tsValue(v, depth + 1)},`);
  return `{\n${lines.join("\n")}\n${pad(depth)}}`;
}

export function yamlValue(e: Example, depth: number): string {
  switch (e.kind) {
    case "string":
    case "enum":
      return ` ${JSON.stringify(e.value)}`;
    case "integer":
    case "number":
    case "boolean":
      return ` ${e.value}`;
    case "secret":
      return ` \${${e.config}}`;
    case "list":
      // An object item starts on its dash line: `- name: web`, its other fields below it.
      return e.values.map((v) => `\n${pad(depth)}-${yamlValue(v, depth + 1).replace(new RegExp(`^\n${pad(depth + 1)}`), " ")}`).join("");
    case "map":
    case "object": {
      const fields = e.kind === "map" ? e.entries : e.fields;
      if (fields.length === 0) return " {}";
      return fields.map(([k, v]) => `\n${pad(depth)}${k}:${yamlValue(v, depth + 1)}`).join("");
    }
  }
}

/** The Go SDK's input constructor of a scalar or element type. */
const GO_SCALARS: Record<string, string> = {
  string: "String",
  integer: "Int",
  number: "Float64",
  boolean: "Bool",
};

function goElement(p: PropertySpec, module: string): string {
  if (p.$ref) return `${module}.${refName(p.$ref)}`;
  const scalar = GO_SCALARS[p.type ?? ""];
  if (!scalar) throw new Error(`Go example: no element type for '${typeText(p)}'`);
  return `pulumi.${scalar}`;
}

/**
 * The fields of a Go composite literal as gofmt lays them out: the values of consecutive one-line
 * fields start in one column; a multi-line value ends the run.
 */
function goFields(fields: [string, string][], depth: number): string {
  const lines: string[] = [];
  let run: [string, string][] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map(([k]) => k.length));
    for (const [k, v] of run) lines.push(`${pad(depth)}${`${k}:`.padEnd(width + 2)}${v},`);
    run = [];
  };
  for (const [k, v] of fields) {
    if (v.includes("\n")) {
      flush();
      lines.push(`${pad(depth)}${k}: ${v},`);
    } else {
      run.push([k, v]);
    }
  }
  flush();
  return lines.join("\n");
}

export function goValue(e: Example, depth: number, module: string): string {
  switch (e.kind) {
    case "string":
      return `pulumi.String(${JSON.stringify(e.value)})`;
    case "integer":
      return `pulumi.Int(${e.value})`;
    case "number":
      return `pulumi.Float64(${e.value})`;
    case "boolean":
      return `pulumi.Bool(${e.value})`;
    case "enum":
      return `${module}.${e.type}(${JSON.stringify(e.value)})`;
    case "secret":
      return `cfg.RequireSecret(${JSON.stringify(e.config)})`;
    case "list":
      return `${goElement(e.item, module)}Array{${e.values.map((v) => goValue(v, depth, module)).join(", ")}}`;
    case "map": {
      if (e.entries.length === 0) return `${goElement(e.item, module)}Map{}`;
      const fields = e.entries.map(([k, v]) => [JSON.stringify(k), goValue(v, depth + 1, module)] as [string, string]);
      return `${goElement(e.item, module)}Map{\n${goFields(fields, depth + 1)}\n${pad(depth)}}`;
    }
    case "object": {
      if (e.fields.length === 0) return `&${module}.${e.type}Args{}`;
      const fields = e.fields.map(([k, v]) => [pascal(k), goValue(v, depth + 1, module)] as [string, string]);
      return `&${module}.${e.type}Args{\n${goFields(fields, depth + 1)}\n${pad(depth)}}`;
    }
  }
}

/** Every secret the example reads from the stack configuration. */
function secretsOf(examples: [string, Example][]): string[] {
  const found: string[] = [];
  const walk = (e: Example) => {
    if (e.kind === "secret") found.push(e.config);
    if (e.kind === "list") e.values.forEach(walk);
    if (e.kind === "map") for (const [, v] of e.entries) walk(v);
    if (e.kind === "object") for (const [, v] of e.fields) walk(v);
  };
  for (const [, e] of examples) walk(e);
  return found;
}

export function examples(schema: PackageSpec, token: string, resource: ResourceSpec, options: RenderOptions): string {
  const { module, kind } = splitToken(token);
  const name = kebab(kind);
  const inputs = resource.inputProperties ?? {};
  const required = resource.requiredInputs ?? [];
  // Optional inputs the schema gives an example for belong in it too (one of two sizes a resource needs).
  const chosen = Object.keys(inputs).filter((f) => !required.includes(f) && clusterform(inputs[f]).example !== undefined);
  const values = [...required, ...chosen].map((f) => [f, exampleOf(schema, f, inputs[f] ?? {})] as [string, Example]);
  const secrets = secretsOf(values);
  const npm = options.typescriptModule ?? schema.language?.nodejs?.packageName ?? `@pulumi/${schema.name}`;
  const goBase = schema.language?.go?.importBasePath ?? `github.com/pulumi/pulumi-${schema.name}/sdk/go/${schema.name}`;

  const ts = [
    ...(secrets.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    `import { ${module} } from "${npm}";`,
    "",
    ...(secrets.length ? ["const config = new pulumi.Config();"] : []),
    `const ${kind.charAt(0).toLowerCase()}${kind.slice(1)} = new ${module}.${kind}("${name}", ${tsObject(values, 0, false)});`,
  ];
  const yaml = [
    ...(secrets.length ? ["config:", ...secrets.flatMap((s) => [`  ${s}:`, "    type: string", "    secret: true"])] : []),
    "resources:",
    `  ${name}:`,
    `    type: ${token}`,
    ...(values.length ? [`    properties:${yamlValue({ kind: "object", type: kind, fields: values }, 3)}`] : []),
  ];
  const go = [
    "package main",
    "",
    "import (",
    `\t"${goBase}/${module}"`,
    ...(secrets.length ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(secrets.length ? ['\t\tcfg := config.New(ctx, "")'] : []),
    `\t\t_, err := ${module}.New${kind}(ctx, "${name}", ${goValue({ kind: "object", type: kind, fields: values }, 2, module)})`,
    "\t\treturn err",
    "\t})",
    "}",
  ];
  return [
    "## Example",
    "",
    chosen.length ? `The smallest program: the required inputs and ${chosen.map((f) => `\`${f}\``).join(", ")}.` : "The smallest program: the required inputs only.",
    "",
    "### TypeScript",
    "",
    "```typescript",
    ...ts,
    "```",
    "",
    "### YAML",
    "",
    "```yaml",
    ...yaml,
    "```",
    "",
    "### Go",
    "",
    "```go",
    // gofmt's indentation: the nested values above indent by two spaces per level.
    ...go
      .join("\n")
      .split("\n")
      .map((l) => l.replace(/^ +/, (s) => "\t".repeat(s.length / 2))),
    "```",
  ].join("\n");
}

export function inputsTable(resource: ResourceSpec): string {
  const required = new Set(resource.requiredInputs ?? []);
  const rows = Object.entries(resource.inputProperties ?? {}).map(([name, p]) =>
    [
      `\`${name}\``,
      typeText(p),
      required.has(name) ? "yes" : "no",
      defaultText(p),
      p.secret ? "yes" : "",
      policyText(p, resource.properties?.[name]),
      cell(withoutDefault(p)),
    ].join(" | "),
  );
  return [
    "## Inputs",
    "",
    "On change: `replace` means a change of the input replaces the object with a new one; `in place`",
    "names the platform operation that changes the live object; `no platform call` changes only the state.",
    "After a colon: why, or how the call carries the change.",
    "",
    "| input | type | required | default | secret | on change | description |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

export function outputsTable(resource: ResourceSpec): string {
  const inputs = resource.inputProperties ?? {};
  const rows = Object.entries(resource.properties ?? {}).map(([name, p]) =>
    [
      `\`${name}\``,
      typeText(p),
      p.secret || inputs[name]?.secret ? "yes" : "",
      cell(withoutDefault(p.description ? p : (inputs[name] ?? {}))),
    ].join(" | "),
  );
  return [
    "## Outputs",
    "",
    "Every input is an output too; the state holds secrets encrypted.",
    "",
    "| output | type | secret | description |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

/** The type tokens a property refers to, through lists and maps (Pulumi's builtins excluded). */
export function refsOf(p: PropertySpec): string[] {
  if (p.$ref && !p.$ref.startsWith(BUILTIN)) return [p.$ref];
  if (p.items) return refsOf(p.items);
  if (p.additionalProperties) return refsOf(p.additionalProperties);
  return [];
}

/**
 * Every named type a resource uses, nested ones too, in the order a reader meets them (breadth
 * first from the inputs, then the outputs), each once.
 */
export function typesOf(schema: PackageSpec, resource: ResourceSpec): [string, TypeSpec][] {
  const seen = new Set<string>();
  const found: [string, TypeSpec][] = [];
  const queue = [...Object.values(resource.inputProperties ?? {}), ...Object.values(resource.properties ?? {})].flatMap(refsOf);
  while (queue.length > 0) {
    const ref = queue.shift()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const type = lookupRef(schema, ref);
    found.push([refName(ref), type]);
    for (const p of Object.values(type.properties ?? {})) queue.push(...refsOf(p));
  }
  return found;
}

/** One named type: an object's fields (name, type, required, default, description), or an enum's values. */
export function typeSection(name: string, type: TypeSpec): string {
  const head = [`### ${name}`, "", ...(type.description ? [cell(type.description), ""] : [])];
  if (type.enum) {
    const rows = type.enum.map((e) => `| \`${JSON.stringify(e.value)}\` | ${cell(e.description ?? "")} |`);
    return [...head, "| value | description |", "| --- | --- |", ...rows].join("\n");
  }
  const required = new Set(type.required ?? []);
  const rows = Object.entries(type.properties ?? {}).map(([field, p]) =>
    [`\`${field}\``, typeText(p), required.has(field) ? "yes" : "no", defaultText(p), p.secret ? "yes" : "", cell(withoutDefault(p))].join(" | "),
  );
  return [...head, "| field | type | required | default | secret | description |", "| --- | --- | --- | --- | --- | --- |", ...rows.map((r) => `| ${r} |`)].join(
    "\n",
  );
}

/** The fields of every named type the inputs and outputs use, so no nested field goes undocumented. */
export function typesSection(schema: PackageSpec, resource: ResourceSpec): string {
  const types = typesOf(schema, resource);
  if (types.length === 0) return "";
  return [
    "## Types",
    "",
    "The object types the inputs and outputs above use; a field's change follows the policy of the input that holds it.",
    "",
    types.map(([name, type]) => typeSection(name, type)).join("\n\n"),
  ].join("\n");
}

export function importSection(token: string, resource: ResourceSpec): string {
  const id = importId(resource);
  const { kind } = splitToken(token);
  if (!id) return ["## Import", "", "The schema names no import id for this resource."].join("\n");
  const unreported = id.unreported?.length
    ? `Inputs the platform does not report, so the import cannot record them: write them in the program: ${id.unreported.map((f) => `\`${f}\``).join(", ")}.`
    : id.unreported
      ? "The platform reports every input."
      : "";
  return [
    "## Import",
    "",
    `Import id: ${id.shape}${id.example ? `, for example \`${id.example}\`` : ""}.`,
    "",
    ...(id.example ? ["```sh", `pulumi import ${token} ${kebab(kind)} '${id.example}'`, "```", ""] : []),
    unreported,
  ].join("\n");
}

/** The default time limits, when the schema gives them. */
export function timeoutsLine(resource: ResourceSpec): string {
  const limits = Object.entries(clusterform(resource).timeouts ?? {});
  if (limits.length === 0) return "";
  return `Default time limits: ${limits.map(([op, d]) => `${op} ${d}`).join(", ")}.`;
}
