/**
 * The lookups section of a resource page: every function of the schema whose `language.clusterform.kind`
 * is the page's resource (a Pulumi function `clusterform:<module>:get<Name>`, an OpenTofu data source),
 * with its arguments, its result and an example in TypeScript, YAML, Go, Python and HCL.
 *
 * Pure, like render.ts beside it: only type annotations that can be erased.
 */
import {
  cell,
  type Example,
  exampleOf,
  type FunctionSpec,
  type TypeSpec,
  type PackageSpec,
  type PropertySpec,
  pascal,
  refName,
  refsOf,
  type RenderOptions,
  splitToken,
  typeSection,
  typesOf,
  typeText,
  withoutDefault,
  yamlValue,
} from "./render.ts";

/** What the schema generator records on a function under `language.clusterform`. */
interface FunctionExtension {
  kind?: string;
  dataSource?: string;
  /** Arguments of which exactly one is given; the examples give the first. */
  oneOf?: string[];
}

const ext = (f: FunctionSpec): FunctionExtension => (f.language?.clusterform ?? {}) as FunctionExtension;
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** The functions of a resource's kind, by token, in the schema's order. */
function functionsOf(schema: PackageSpec, token: string): [string, FunctionSpec][] {
  const { module, kind } = splitToken(token);
  return Object.entries(schema.functions ?? {}).filter(([, f]) => ext(f).kind === `${module}:${kind}`);
}

/** The arguments an example gives: the required ones and the first of the alternatives. */
function exampleArgs(schema: PackageSpec, f: FunctionSpec): [string, Example][] {
  const properties = f.inputs?.properties ?? {};
  const names = [...(f.inputs?.required ?? []), ...(ext(f).oneOf ?? []).slice(0, 1)];
  return names.map((n) => [n, exampleOf(schema, n, properties[n] ?? {})]);
}

/** The result field an example shows: a secret one (a kubeconfig), else the newest version, else the first after `id`. */
function shownOutput(f: FunctionSpec): { name: string; secret: boolean } {
  const outputs = Object.entries(f.outputs?.properties ?? {});
  const secret = outputs.find(([, p]) => p.secret);
  const chosen = secret ?? outputs.find(([n]) => n === "newest") ?? outputs.find(([n]) => n !== "id") ?? outputs[0];
  return { name: chosen[0], secret: chosen[1].secret === true };
}

function scalarText(e: Example, quote: (s: string) => string): string {
  if (e.kind === "string" || e.kind === "enum") return quote(String(e.value));
  if (e.kind === "map") return `{ ${e.entries.map(([k, v]) => `${JSON.stringify(k)}: ${scalarText(v, quote)}`).join(", ")} }`;
  return String((e as { value?: unknown }).value);
}

function goArg(e: Example, required: boolean): string {
  if (e.kind === "map") return `map[string]string{${e.entries.map(([k, v]) => `${JSON.stringify(k)}: ${scalarText(v, JSON.stringify)}`).join(", ")}}`;
  const text = scalarText(e, JSON.stringify);
  return required ? text : `pulumi.StringRef(${text})`;
}

function hclValue(e: Example): string {
  if (e.kind === "map") return `{ ${e.entries.map(([k, v]) => `${k} = ${scalarText(v, JSON.stringify)}`).join(", ")} }`;
  return scalarText(e, JSON.stringify);
}

function examplesOf(schema: PackageSpec, token: string, f: FunctionSpec, options: RenderOptions): string[] {
  const { module, kind: name } = splitToken(token);
  const args = exampleArgs(schema, f);
  const required = new Set(f.inputs?.required ?? []);
  const shown = shownOutput(f);
  const npm = options.typescriptModule ?? `@pulumi/${schema.name}`;
  const goBase = schema.language?.go?.importBasePath ?? `github.com/pulumi/pulumi-${schema.name}/sdk/go/${schema.name}`;
  // Pulumi's Go generator names a function `Lookup<Resource>` when a resource of its module has that name.
  const bare = name.replace(/^get/, "");
  const goName = Object.hasOwn(schema.resources ?? {}, `${schema.name}:${module}:${bare}`) ? `Lookup${bare}` : pascal(name);
  const tsArgs = args.length ? `{ ${args.map(([k, v]) => `${k}: ${scalarText(v, JSON.stringify)}`).join(", ")} }` : "";
  const dataSource = ext(f).dataSource ?? `${schema.name}_${module}_${snake(bare)}`;
  const hclArgs = args.map(([k, v]) => `  ${snake(k)} = ${hclValue(v)}`);
  // gofmt aligns the values of a struct literal's fields.
  const goKeyWidth = Math.max(0, ...args.map(([k]) => pascal(k).length));
  const goCall = args.length
    ? [`\t\tfound, err := ${module}.${goName}(ctx, &${module}.${goName}Args{`, ...args.map(([k, v]) => `\t\t\t${`${pascal(k)}:`.padEnd(goKeyWidth + 1)} ${goArg(v, required.has(k))},`), "\t\t})"]
    : Object.keys(f.inputs?.properties ?? {}).length > 0
      ? // Only optional arguments: Go still takes the arguments' struct.
        [`\t\tfound, err := ${module}.${goName}(ctx, &${module}.${goName}Args{})`]
      : [`\t\tfound, err := ${module}.${goName}(ctx)`];
  const goFound = `found.${pascal(shown.name)}`;
  return [
    "TypeScript:",
    "",
    "```typescript",
    `import { ${module} } from "${npm}";`,
    "",
    `const found = ${module}.${name}Output(${tsArgs});`,
    `export const ${shown.name} = found.${shown.name};`,
    "```",
    "",
    "YAML:",
    "",
    "```yaml",
    "variables:",
    "  found:",
    "    fn::invoke:",
    `      function: ${token}`,
    ...(args.length ? [`      arguments:${yamlValue({ kind: "object", type: name, fields: args }, 4)}`] : []),
    "outputs:",
    `  ${shown.name}: \${found.${shown.name}}`,
    "```",
    "",
    "Go:",
    "",
    "```go",
    "package main",
    "",
    "import (",
    `\t"${goBase}/${module}"`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...goCall,
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
    `\t\tctx.Export(${JSON.stringify(shown.name)}, ${shown.secret ? `pulumi.ToSecret(${goFound})` : `pulumi.Any(${goFound})`})`,
    "\t\treturn nil",
    "\t})",
    "}",
    "```",
    "",
    "Python:",
    "",
    "```python",
    "import pulumi",
    `from pulumi_${schema.name} import ${module}`,
    "",
    `found = ${module}.${snake(name)}_output(${args.map(([k, v]) => `${snake(k)}=${scalarText(v, JSON.stringify)}`).join(", ")})`,
    `pulumi.export(${JSON.stringify(snake(shown.name))}, found.${snake(shown.name)})`,
    "```",
    "",
    "OpenTofu / Terraform:",
    "",
    "```hcl",
    `data "${dataSource}" "found" {`,
    ...hclArgs,
    "}",
    "",
    `output "${snake(shown.name)}" {`,
    `  value${shown.secret ? "     " : " "}= data.${dataSource}.found.${snake(shown.name)}`,
    ...(shown.secret ? ["  sensitive = true"] : []),
    "}",
    "```",
  ];
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)];
}

function functionSection(schema: PackageSpec, token: string, f: FunctionSpec, options: RenderOptions): string[] {
  const { kind: name } = splitToken(token);
  const inputs = Object.entries(f.inputs?.properties ?? {});
  const required = new Set(f.inputs?.required ?? []);
  const outputs = Object.entries(f.outputs?.properties ?? {});
  const present = new Set(f.outputs?.required ?? []);
  const dataSource = ext(f).dataSource;
  return [
    `### ${name}`,
    "",
    `Function \`${token}\`${dataSource ? `; data source \`${dataSource}\`` : ""}.`,
    "",
    cell(f.description ?? ""),
    "",
    ...(inputs.length
      ? table(["argument", "type", "required", "description"], inputs.map(([n, p]) => [`\`${n}\``, typeText(p), required.has(n) ? "yes" : "no", cell(withoutDefault(p))]))
      : ["No arguments."]),
    "",
    ...table(["result", "type", "always present", "secret", "description"], outputs.map(([n, p]) => [`\`${n}\``, typeText(p), present.has(n) ? "yes" : "no", p.secret ? "yes" : "", cell(withoutDefault(p))])),
    "",
    ...examplesOf(schema, token, f, options),
  ];
}

/** The object types the functions use that the page's Types section does not already document. */
function extraTypes(schema: PackageSpec, token: string, functions: [string, FunctionSpec][]): [string, TypeSpec][] {
  const resource = schema.resources?.[token] ?? {};
  const documented = new Set(typesOf(schema, resource).map(([n]) => n));
  const pseudo = { inputProperties: {} as Record<string, PropertySpec>, properties: {} as Record<string, PropertySpec> };
  for (const [, f] of functions) Object.assign(pseudo.properties, Object.fromEntries(Object.entries(f.outputs?.properties ?? {}).filter(([, p]) => refsOf(p).length > 0).map(([n, p], i) => [`${n}${i}`, p])));
  return typesOf(schema, pseudo).filter(([n]) => !documented.has(n) && refName(n) === n);
}

/** The page's lookups section; empty when the kind has none. */
export function functionsSection(schema: PackageSpec, token: string, options: RenderOptions): string {
  const functions = functionsOf(schema, token);
  if (functions.length === 0) return "";
  const extra = extraTypes(schema, token, functions);
  return [
    "## Lookups",
    "",
    "Reads of what a program does not manage: each only reads, and the object stays whoever's it is. A missing object",
    "fails at preview or plan, naming the kind, the key and the endpoint; a list with no match is empty. A resource's",
    "static `get(name, id)` reads one object by its import id into a program in the same way.",
    "",
    ...functions.flatMap(([t, f]) => [...functionSection(schema, t, f, options), ""]),
    ...(extra.length ? ["### Types of the lookups", "", extra.map(([n, type]) => typeSection(n, type).replace(/^### /, "#### ")).join("\n\n")] : []),
  ].join("\n");
}
