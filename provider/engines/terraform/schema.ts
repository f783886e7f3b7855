import type { CtyType } from "./codec";
import { KINDS, type KindEntry } from "./kinds";

/** One attribute of a Terraform resource type, and the handler field it carries. */
export interface TfAttribute {
  /** The HCL name: snake_case, reserved names renamed (`count` is `node_count`). */
  name: string;
  /** The handler's field (camelCase), as the Pulumi provider names it. */
  field: string;
  type: CtyType;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  description: string;
  /** A change plans a replacement (the field's policy is `replace`). */
  forcesReplacement: boolean;
  /** An output only: the platform's value, never the user's. */
  output: boolean;
}

/** A Terraform resource type served by one handler. */
export interface TfResourceType {
  /** e.g. `clusterform_cmassh_cluster`. */
  name: string;
  /** e.g. `cmassh:Cluster`. */
  handlerType: string;
  attributes: TfAttribute[];
  /** The object type of the whole resource, as values cross the protocol. */
  objectType: CtyType;
  /** The handler field that names the object, when the kind has one (the base of its identity). */
  nameField?: string;
  secrets: readonly string[];
}

// Fields the Pulumi SDK adds to every resource (identity, engine options): Terraform has no place
// for them; the adapter fills owner and resourceName itself.
const HIDDEN = new Set(["owner", "resourceName", "autoNamed", "__provider", "deleteBeforeReplace", "resourceUrn"]);

// HCL meta-arguments cannot be attribute names.
const RESERVED: Readonly<Record<string, string>> = { count: "node_count", provider: "provider_name", lifecycle: "lifecycle_policy" };

/** `kubernetesVersion` -> `kubernetes_version`; reserved names renamed. */
export function hclName(field: string): string {
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return RESERVED[snake] ?? snake;
}

/** zod v4 keeps a schema's structure in `_zod.def`. */
interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  shape?: Record<string, { _zod: { def: ZodDef }; safeParse(v: unknown): { success: boolean } }>;
}

function ctyTypeOf(def: ZodDef): CtyType {
  const inner = def.innerType?._zod.def;
  if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && inner) return ctyTypeOf(inner);
  const primitive: Record<string, CtyType> = { string: "string", boolean: "bool", number: "number", int: "number" };
  // The building blocks (orUnknown, intInRange, ...) validate inside transforms whose type zod does
  // not expose: those fields are `dynamic` here, and check() validates them at plan time.
  return primitive[def.type] ?? "dynamic";
}

function describePolicy(policy: { kind: string; operation?: string } | undefined): string {
  if (!policy) return "";
  if (policy.kind === "replace") return "Changing it replaces the object.";
  if (policy.kind === "update") return `Changed in place by ${policy.operation}.`;
  return "Never causes a change by itself.";
}

/** Builds the Terraform resource type of one kind from its zod schema and policy table. */
export function buildResourceType(name: string, entry: KindEntry): TfResourceType {
  const { schema, policies } = entry.load();
  const shape = (schema as { _zod: { def: ZodDef } })._zod.def.shape ?? {};
  const secrets = entry.secrets ?? [];
  const attributes: TfAttribute[] = [
    { name: "id", field: "id", type: "string", required: false, optional: false, computed: true, sensitive: false, description: "The object's id on the platform (the import id).", forcesReplacement: false, output: true },
  ];
  const hasName = Object.hasOwn(shape, "name");
  for (const [field, member] of Object.entries(shape)) {
    if (HIDDEN.has(field)) continue;
    const policy = policies[field];
    const isOutput = entry.outputs.includes(field) && policy?.kind === "ignore";
    // Derived names need the resource's address, which Terraform never gives a provider: a kind that
    // has a name requires it (and it is the base of the object's identity).
    const optional = field === "name" ? false : member.safeParse(undefined).success;
    attributes.push({
      name: hclName(field),
      field,
      type: field === "name" ? "string" : ctyTypeOf(member._zod.def),
      required: !isOutput && !optional,
      optional: !isOutput && optional,
      // Optional inputs the handler may fill (defaults, normalization) take the planned value.
      computed: isOutput || optional,
      sensitive: secrets.includes(field),
      description: isOutput ? "Set by the platform." : describePolicy(policy),
      forcesReplacement: policy?.kind === "replace",
      output: isOutput,
    });
  }
  for (const field of entry.outputs) {
    if (Object.hasOwn(shape, field)) continue;
    attributes.push({ name: hclName(field), field, type: "dynamic", required: false, optional: false, computed: true, sensitive: secrets.includes(field), description: "Set by the platform.", forcesReplacement: false, output: true });
  }
  const objectType: CtyType = ["object", Object.fromEntries(attributes.map((a) => [a.name, a.type]))];
  return { name, handlerType: entry.handlerType, attributes, objectType, nameField: hasName ? "name" : undefined, secrets };
}

const built = new Map<string, TfResourceType>();

/** The Terraform resource type `name`, built at first use; undefined for a type this release lacks. */
export function resourceType(name: string): TfResourceType | undefined {
  const entry = KINDS[name];
  if (!entry) return undefined;
  let type = built.get(name);
  if (!type) {
    type = buildResourceType(name, entry);
    built.set(name, type);
  }
  return type;
}

/** Every Terraform resource type name this release serves. */
export const RESOURCE_TYPE_NAMES = Object.keys(KINDS);
