import { SERVER_DEFAULT_SENTENCE } from "../../core/definition/describe";
import type { Kind } from "../../core/definition/kind";
import { retiredFields } from "../../core/definition/migration";
import type { Field, TypeSpec } from "../../core/definition/values";
import type { CtyType } from "./codec";
import { loadKind, TYPE_NAMES, terraformTypeName } from "./kind-modules";

/**
 * The Terraform schema, derived from the one definition of every field (provider/core/definition):
 * names in snake_case (or the field's `names.terraform`), types, required / optional / computed,
 * sensitive, descriptions with the change policy, and which attributes force replacement.
 */

/** The shape of a value, as both the schema and the value conversion need it. */
export type TfNode =
  | { kind: "primitive"; cty: "string" | "number" | "bool"; fromNumber?: boolean }
  /** Free-form JSON: a `dynamic` value. */
  | { kind: "json" }
  | { kind: "list"; of: TfNode }
  | { kind: "map"; of: TfNode }
  | { kind: "object"; attributes: TfAttribute[] };

/** One attribute (top-level or nested) and the handler field it carries. */
export interface TfAttribute {
  /** The HCL name. */
  name: string;
  /** The handler's field (camelCase). */
  field: string;
  node: TfNode;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  description: string;
  /** A change plans a replacement (the field's policy is `replace`). */
  forcesReplacement: boolean;
  /** An output: the platform's value, never the user's. */
  output: boolean;
  /**
   * A field a release's migration renamed or split away (core/definition/migration.ts): kept in the
   * schema, deprecated, so that a configuration still setting it fails naming what to write
   * instead, where tofu would only say the argument is not expected. Never stored.
   */
  retired?: { release: string; why: string };
}

/** A Terraform resource type served by one handler. */
export interface TfResourceType {
  /** e.g. `clusterform_cmassh_cluster`. */
  name: string;
  /** e.g. `cmassh:Cluster`. */
  handlerType: string;
  description: string;
  attributes: TfAttribute[];
  /** The object type of the whole resource, as values cross the protocol. */
  objectType: CtyType;
  /** The handler field that names the object, when the kind has one (the base of its identity). */
  nameField?: string;
  /** Handler fields whose values are secrets (never written to the provider's private state). */
  secrets: readonly string[];
  /** The kind's state schema version: the schema's `version`, tofu's `schema_version` of stored objects. */
  schemaVersion: number;
}

export { terraformTypeName };

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** A field's HCL name: its `names.terraform`, else its Pulumi name in snake_case. */
export function attributeName(key: string, field: Pick<Field, "names">): string {
  return field.names?.terraform ?? snake(field.names?.pulumi ?? key);
}

/** A TypeSpec as a node; any free-form JSON inside a collection makes the whole value `dynamic`. */
export function nodeOf(type: TypeSpec): TfNode {
  switch (type.kind) {
    case "string":
      return { kind: "primitive", cty: "string" };
    case "stringOrNumber":
      return { kind: "primitive", cty: "string", fromNumber: true };
    case "integer":
    case "number":
      return { kind: "primitive", cty: "number" };
    case "boolean":
      return { kind: "primitive", cty: "bool" };
    case "json":
      return { kind: "json" };
    case "list":
    case "map": {
      const of = nodeOf(type.of);
      return hasJson(of) ? { kind: "json" } : { kind: type.kind, of };
    }
    case "object":
      return { kind: "object", attributes: Object.entries(type.fields).map(([key, f]) => inputAttribute(key, f)) };
  }
}

function hasJson(node: TfNode): boolean {
  if (node.kind === "json") return true;
  if (node.kind === "list" || node.kind === "map") return hasJson(node.of);
  return false;
}

/** The cty type of a node's values on the wire. */
export function ctyOf(node: TfNode): CtyType {
  switch (node.kind) {
    case "primitive":
      return node.cty;
    case "json":
      return "dynamic";
    case "list":
    case "map":
      return [node.kind, ctyOf(node.of)];
    case "object":
      return ["object", Object.fromEntries(node.attributes.map((a) => [a.name, ctyOf(a.node)]))];
  }
}

function describe(field: Field): string {
  const policy = field.policy;
  const change =
    policy?.kind === "replace"
      ? " Changing it forces replacement."
      : policy?.kind === "update"
        ? ` Changed in place (${policy.operation}).`
        : policy?.kind === "record"
          ? " Changed in place, in the state only."
          : "";
  const fallback = field.default ? ` Default: ${field.default}.` : "";
  const kept = field.serverDefault ? ` ${SERVER_DEFAULT_SENTENCE}` : "";
  return `${field.description}${change}${fallback}${kept}`;
}

function inputAttribute(key: string, field: Field): TfAttribute {
  return {
    name: attributeName(key, field),
    field: key,
    node: nodeOf(field.value.type),
    required: field.required,
    optional: !field.required,
    computed: !field.required && (field.computed === true || field.serverDefault === true),
    sensitive: field.secret === true,
    description: describe(field),
    forcesReplacement: field.policy?.kind === "replace",
    output: false,
  };
}

/** The Terraform resource type of a kind. */
export function buildResourceType(kind: Kind): TfResourceType {
  const attributes: TfAttribute[] = [
    { name: "id", field: "id", node: { kind: "primitive", cty: "string" }, required: false, optional: false, computed: true, sensitive: false, description: `The object's id on the platform; \`tofu import\` takes it${kind.importId ? ` (${kind.importId.shape}, e.g. ${kind.importId.example})` : ""}.`, forcesReplacement: false, output: true },
  ];
  for (const [key, field] of Object.entries(kind.allInputs)) {
    const attr = inputAttribute(key, field);
    // Derived names need the resource's address, which Terraform never gives a provider: in HCL
    // the name is required (it is the base of the object's identity, so an interrupted apply adopts).
    if (key === "name") Object.assign(attr, { required: true, optional: false, computed: false });
    attributes.push(attr);
  }
  for (const [key, out] of Object.entries(kind.outputs)) {
    if (Object.hasOwn(kind.allInputs, key)) continue;
    attributes.push({ name: snake(key), field: key, node: nodeOf(out.type), required: false, optional: false, computed: true, sensitive: out.secret === true, description: out.description, forcesReplacement: false, output: true });
  }
  // Fields migrations retired, under the HCL names they had (any value: their old types are gone).
  for (const { field, release, why } of retiredFields(kind.migrations)) {
    if (attributes.some((a) => a.field === field)) continue;
    const description = `Replaced in ${release}: ${why}.`;
    attributes.push({ name: attributeName(field, {}), field, node: { kind: "json" }, required: false, optional: true, computed: false, sensitive: false, description, forcesReplacement: false, output: false, retired: { release, why } });
  }
  const secrets = [
    ...Object.entries(kind.allInputs).filter(([, f]) => f.secret).map(([k]) => k),
    ...Object.entries(kind.outputs).filter(([, o]) => o.secret).map(([k]) => k),
  ];
  return {
    name: terraformTypeName(kind.type),
    handlerType: kind.type,
    description: kind.description,
    attributes,
    objectType: ctyOf({ kind: "object", attributes }),
    nameField: Object.hasOwn(kind.allInputs, "name") ? "name" : undefined,
    secrets,
    schemaVersion: kind.schemaVersion,
  };
}

/** The resource types of these kinds, by Terraform name. */
export function buildResourceTypes(kinds: readonly Kind[]): Map<string, TfResourceType> {
  return new Map(kinds.map((k) => buildResourceType(k)).map((t) => [t.name, t]));
}

const built = new Map<string, { type: TfResourceType; kind: Kind }>();

/** One resource type by Terraform name, with its kind, or undefined; only its kind's definition loads (kind-modules.ts). */
export async function resourceType(name: string): Promise<{ type: TfResourceType; kind: Kind } | undefined> {
  let found = built.get(name);
  if (!found) {
    const kind = await loadKind(name);
    if (!kind) return undefined;
    found = { type: buildResourceType(kind), kind };
    built.set(name, found);
  }
  return found;
}

/** Every resource type, by Terraform name: loads every kind's definition (GetProviderSchema needs them all). */
export async function resourceTypes(): Promise<Map<string, TfResourceType>> {
  const all = await Promise.all(TYPE_NAMES.map(async (name) => [name, (await resourceType(name))!.type] as const));
  return new Map(all);
}
