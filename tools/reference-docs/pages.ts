/**
 * The reference pages of a Pulumi package schema, assembled from render.ts's parts and the lookups
 * section (functions.ts): one page per resource, the provider's configuration, and an index.
 *
 * Pure, like render.ts: only type annotations that can be erased, so Node runs it as it is.
 */
import { functionsSection } from "./functions.ts";
import {
  BANNER,
  bodyOf,
  cell,
  defaultText,
  examples,
  importSection,
  inputsTable,
  outputsTable,
  type Page,
  type PackageSpec,
  pageFile,
  type RenderOptions,
  type ResourceSpec,
  splitToken,
  summary,
  timeoutsLine,
  typesSection,
  typeText,
} from "./render.ts";

/** The page of one resource. */
export function resourcePage(schema: PackageSpec, token: string, resource: ResourceSpec, options: RenderOptions = {}): Page {
  const { module, kind } = splitToken(token);
  const functions = functionsSection(schema, token, options);
  const text = [
    BANNER,
    "",
    `# ${module}.${kind}`,
    "",
    `Token: \`${token}\``,
    "",
    bodyOf(resource),
    "",
    timeoutsLine(resource),
    "",
    examples(schema, token, resource, options),
    "",
    inputsTable(resource),
    "",
    outputsTable(resource),
    "",
    typesSection(schema, resource),
    "",
    importSection(token, resource),
    "",
    ...(functions ? [functions, ""] : []),
  ].join("\n");
  return { file: pageFile(token), text: text.replace(/\n{3,}/g, "\n\n") };
}

/** The page of the provider's configuration: stack settings `<package>:<name>` or Provider inputs. */
export function providerPage(schema: PackageSpec): Page {
  const variables = schema.config?.variables ?? {};
  const rows = Object.entries(variables).map(([name, p]) =>
    [
      `\`${schema.name}:${name}\``,
      typeText(p),
      defaultText(p),
      p.secret ? "yes" : "",
      cell(p.description ?? ""),
    ].join(" | "),
  );
  const text = [
    BANNER,
    "",
    "# Provider configuration",
    "",
    (schema.provider?.description ?? "").trim(),
    "",
    `The default provider reads these stack settings; an explicit \`${schema.name}.Provider\` resource takes`,
    "the same names as inputs. Set secrets with `pulumi config set --secret`.",
    "",
    "| setting | type | default | secret | description |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r} |`),
    "",
  ].join("\n");
  return { file: "provider.md", text: text.replace(/\n{3,}/g, "\n\n") };
}

/** Every page of the schema: the index, the provider page and one page per resource. */
export function renderReference(schema: PackageSpec, options: RenderOptions = {}): Page[] {
  const tokens = Object.keys(schema.resources ?? {}).sort();
  const resources = tokens.map((t) => resourcePage(schema, t, schema.resources![t], options));
  const index = [
    BANNER,
    "",
    `# ${schema.displayName ?? schema.name} reference`,
    "",
    `Package \`${schema.name}\`${schema.version ? ` ${schema.version}` : ""}: the resources of its schema, one page each.`,
    "",
    "- [Provider configuration](provider.md)",
    ...tokens.map((t) => `- [${t}](${pageFile(t)}): ${cell(summary(schema.resources![t].description))}`),
    "",
  ].join("\n");
  return [{ file: "README.md", text: index }, providerPage(schema), ...resources];
}
