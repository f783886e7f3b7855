import { fieldDescription, nativeToken, pulumiName, tokenParts } from "../../core/definition/describe";
import type { Kind, OutputField } from "../../core/definition/kind";
import { CONFIG_VARIABLES } from "../../core/definition/provider-config";
import { dataSourceName } from "../../core/naming";
import type { Field, TypeSpec } from "../../core/definition/values";

type Json = Record<string, unknown>;

/** What the package schema says about one property. */
interface PropertySpec extends Json {
  description?: string;
}

/** Collects the object types properties refer to, by token. */
class TypeRegistry {
  readonly types: Record<string, Json> = {};

  constructor(private readonly module: string) {}

  /** The schema type of a value; object types are registered under `clusterform:<module>:<Name>`. */
  typeOf(type: TypeSpec): Json {
    switch (type.kind) {
      case "string":
      case "stringOrNumber":
        return { type: "string" };
      case "integer":
      case "number":
      case "boolean":
        return { type: type.kind };
      case "json":
        return { $ref: "pulumi.json#/Any" };
      case "map":
        return { type: "object", additionalProperties: this.typeOf(type.of) };
      case "list":
        return { type: "array", items: this.typeOf(type.of) };
      case "object":
        return { $ref: `#/types/${this.register(type)}` };
    }
  }

  private register(type: Extract<TypeSpec, { kind: "object" }>): string {
    const token = `clusterform:${this.module}:${type.name}`;
    if (this.types[token]) return token;
    const properties: Json = {};
    this.types[token] = { type: "object", description: type.description, properties };
    const required: string[] = [];
    for (const [key, field] of Object.entries(type.fields)) {
      properties[pulumiName(key, field)] = this.propertyOf(field);
      if (field.required) required.push(pulumiName(key, field));
    }
    if (required.length > 0) this.types[token].required = required;
    return token;
  }

  /** A property from a field: its type, description, default, secret and change policy. */
  propertyOf(field: Field): PropertySpec {
    const spec: PropertySpec = { ...this.typeOf(field.value.type), description: fieldDescription(field) };
    if (field.defaultValue !== undefined) spec.default = field.defaultValue;
    if (field.secret) spec.secret = true;
    if (field.policy?.kind === "replace") spec.replaceOnChanges = true;
    if (field.policy) spec.language = { clusterform: { ...field.policy, ...(field.note ? { note: field.note } : {}) } };
    if (field.example !== undefined) {
      const ext = (spec.language as { clusterform?: Json } | undefined)?.clusterform;
      spec.language = { clusterform: { ...ext, example: field.example } };
    }
    return spec;
  }

  outputOf(output: OutputField): PropertySpec {
    const spec: PropertySpec = { ...this.typeOf(output.type), description: output.description };
    if (output.secret) spec.secret = true;
    return spec;
  }
}

/** The resource entry of one kind. */
function resourceOf(kind: Kind, registry: TypeRegistry): Json {
  const inputProperties: Json = {};
  const requiredInputs: string[] = [];
  for (const [key, field] of Object.entries(kind.allInputs)) {
    inputProperties[pulumiName(key, field)] = registry.propertyOf(field);
    if (field.required) requiredInputs.push(pulumiName(key, field));
  }
  const properties: Json = { ...inputProperties };
  const required = [...requiredInputs];
  for (const [key, output] of Object.entries(kind.outputs)) {
    properties[key] = registry.outputOf(output);
    if (!output.optional) required.push(key);
  }
  const importNote = kind.importId
    ? `\n\n## Import\n\nThe import id is \`${kind.importId.shape}\`, e.g. \`${kind.importId.example}\`.`
    : "";
  return {
    description: kind.description + importNote,
    inputProperties,
    requiredInputs,
    properties,
    required: [...new Set(required)],
    language: { clusterform: { type: kind.type, timeouts: kind.timeouts, ...(kind.importId ? { importId: kind.importId } : {}) } },
  };
}

/** The function entries of a kind's lookups (definition/lookup.ts), by token `clusterform:<module>:<name>`. */
function functionsOf(kind: Kind, registry: TypeRegistry): Json {
  const functions: Json = {};
  const { module } = tokenParts(kind);
  const objectOf = (fields: Readonly<Record<string, Field>>): Json => {
    const properties: Json = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(fields)) {
      properties[pulumiName(key, field)] = registry.propertyOf(field);
      if (field.required) required.push(pulumiName(key, field));
    }
    return { properties, ...(required.length > 0 ? { required } : {}) };
  };
  for (const lookup of kind.lookups ?? []) {
    const oneOf = lookup.form === "object" && lookup.oneOf ? ` Give exactly one of ${lookup.oneOf.map((k) => `\`${k}\``).join(" or ")}.` : "";
    functions[`clusterform:${module}:${lookup.name}`] = {
      description: `${lookup.description}${oneOf} Only reads: the object stays whoever's it is.`,
      ...(Object.keys(lookup.args).length > 0 ? { inputs: objectOf(lookup.args) } : {}),
      outputs: objectOf(lookup.result),
      language: {
        clusterform: {
          kind: kind.type,
          form: lookup.form,
          dataSource: dataSourceName(lookup.platform, lookup.name),
          ...(lookup.form === "object" && lookup.oneOf ? { oneOf: lookup.oneOf.map((k) => pulumiName(k, lookup.args[k])) } : {}),
        },
      },
    };
  }
  return functions;
}

/** The provider's configuration, as stack config variables and as the provider resource's inputs. */
function configProperties(): Json {
  return Object.fromEntries(
    CONFIG_VARIABLES.map((c) => [
      c.key,
      { type: "string", description: c.env ? `${c.description} Falls back to the environment variable \`${c.env}\`.` : c.description, ...(c.secret ? { secret: true } : {}) },
    ]),
  );
}

/** The release assets' folder; Pulumi puts the plugin's version in for the placeholder `${VERSION}`. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi's own placeholder, filled in by the engine
export const PLUGIN_DOWNLOAD_URL = "https://github.com/clusterform/clusterform/releases/download/v${VERSION}";

/**
 * The Pulumi package schema of the native plugin `pulumi-resource-clusterform`, derived from the
 * resource definitions. Written to `schema.json` by `npm run generate:schema`; never edited by hand.
 */
export function pulumiPackageSchema(kinds: readonly Kind[], version: string): Json {
  const resources: Json = {};
  const functions: Json = {};
  const types: Json = {};
  for (const kind of kinds) {
    const registry = new TypeRegistry(tokenParts(kind).module);
    resources[nativeToken(kind)] = resourceOf(kind, registry);
    Object.assign(functions, functionsOf(kind, registry));
    Object.assign(types, registry.types);
  }
  const config = configProperties();
  return {
    name: "clusterform",
    displayName: "Clusterform",
    version,
    description: "Cluster platforms (cma-ssh, Azure CycleCloud, OpenStack Senlin, Uber Peloton, vcluster) as Pulumi resources.",
    keywords: ["pulumi", "clusterform", "kubernetes", "category/infrastructure", "kind/native"],
    license: "Apache-2.0",
    publisher: "Clusterform",
    // Where the engine and the SDKs fetch the plugin when it is not installed: the release's assets
    // (`pulumi-resource-clusterform-v<version>-<os>-<arch>.tar.gz`, written by `npm run release`).
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: { packageName: "@clusterform/pulumi", dependencies: { "@pulumi/pulumi": "^3.139.0" } },
      go: { importBasePath: "github.com/clusterform/clusterform/sdk/go/clusterform", generateResourceContainerTypes: true },
      python: { packageName: "pulumi_clusterform", requires: { pulumi: ">=3.0.0,<4.0.0" } },
      csharp: { rootNamespace: "Clusterform", packageReferences: { Pulumi: "3.*" } },
    },
    config: { variables: config },
    provider: {
      description: "The Clusterform provider: where each platform's API is and how to authenticate to it.",
      inputProperties: config,
      properties: config,
    },
    types: sortKeys(types),
    resources,
    functions,
  };
}

function sortKeys(record: Json): Json {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

