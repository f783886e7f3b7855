import type { Props } from "../../core/contract";
import type { Kind } from "../../core/definition/kind";
import type { Lookup } from "../../core/definition/lookup";
import { dataSourceName } from "../../core/naming";
import type { Field } from "../../core/definition/values";
import { KIND_TYPES, kindOf } from "../../kinds";
import type { TfValue } from "./codec";
import { attributeName, ctyOf, nodeOf, type TfAttribute, type TfNode, type TfResourceType } from "./schema";
import { fromHandler, toHandler } from "./state";

export { dataSourceName };

/*
 * OpenTofu/Terraform data sources: one per lookup of a kind (definition/lookup.ts), its schema from
 * the same fields as the Pulumi function's. The lookup's arguments are the configuration's
 * attributes; its result fields are computed attributes (an argument the result also reports is
 * both). Reading one is the core's lookup, which only reads.
 */

type TfObject = Record<string, TfValue>;

/** A data source: the shape a resource type has (so values encode the same way), with its lookup. */
export interface TfDataSourceType extends TfResourceType {
  lookup: Lookup;
}

/** A result's node with every nested attribute computed: a data source's result is never configured. */
function computedNode(node: TfNode): TfNode {
  if (node.kind === "list" || node.kind === "map") return { ...node, of: computedNode(node.of) };
  if (node.kind !== "object") return node;
  return { kind: "object", attributes: node.attributes.map((a) => ({ ...a, required: false, optional: false, computed: true, forcesReplacement: false, node: computedNode(a.node) })) };
}

function attribute(key: string, field: Field, role: { arg?: Field; result?: Field }): TfAttribute {
  const arg = role.arg;
  const node = nodeOf(field.value.type);
  const description = arg ? `${arg.description}${arg.default !== undefined ? ` Default: ${arg.default}.` : ""}` : field.description;
  return {
    name: attributeName(key, field),
    field: key,
    node: arg ? node : computedNode(node),
    required: arg?.required === true,
    optional: arg !== undefined && !arg.required,
    computed: role.result !== undefined && arg?.required !== true,
    sensitive: (arg?.secret ?? false) || (role.result?.secret ?? false),
    description,
    forcesReplacement: false,
    output: arg === undefined,
  };
}

/** The data source of one lookup of a kind. */
export function buildDataSource(kind: Kind, lookup: Lookup): TfDataSourceType {
  const keys = [...new Set([...Object.keys(lookup.args), ...Object.keys(lookup.result)])];
  const attributes = keys.map((key) => {
    const arg = lookup.args[key];
    const result = lookup.result[key];
    return attribute(key, arg ?? result, { arg, result });
  });
  const oneOf = lookup.form === "object" && lookup.oneOf ? ` Give exactly one of ${lookup.oneOf.map((k) => `\`${attributeName(k, lookup.args[k])}\``).join(" or ")}.` : "";
  return {
    name: dataSourceName(lookup.platform, lookup.name),
    handlerType: kind.type,
    description: `${lookup.description}${oneOf} Only reads: the object stays whoever's it is.`,
    attributes,
    objectType: ctyOf({ kind: "object", attributes }),
    secrets: attributes.filter((a) => a.sensitive).map((a) => a.field),
    // A data source keeps no state between runs: nothing to upgrade.
    schemaVersion: 0,
    lookup,
  };
}

/** The data sources of these kinds, by name. */
export function buildDataSources(kinds: readonly Kind[]): Map<string, { type: TfDataSourceType; kind: Kind }> {
  return new Map(kinds.flatMap((kind) => (kind.lookups ?? []).map((l) => buildDataSource(kind, l))).map((type) => [type.name, { type, kind: kinds.find((k) => k.type === type.handlerType)! }]));
}

/** One data source by name, loading only its platform's kinds; undefined when no lookup has that name. */
export async function dataSource(name: string): Promise<{ type: TfDataSourceType; kind: Kind } | undefined> {
  const platform = /^clusterform_([a-z]+)_/.exec(name)?.[1];
  const kinds = await Promise.all(KIND_TYPES.filter((t) => t.startsWith(`${platform}:`)).map((t) => kindOf(t)));
  return buildDataSources(kinds).get(name);
}

/** The lookup's arguments in a data source's configuration (nulls left out). */
export function argsOf(type: TfDataSourceType, config: TfObject): Props {
  const out: Props = {};
  for (const attr of type.attributes) {
    if (attr.output) continue;
    const value = toHandler(attr.node, config[attr.name] ?? null);
    if (value !== undefined) out[attr.field] = value;
  }
  return out;
}

/** The data source's state: the configuration's arguments and the lookup's result. */
export function dataStateOf(type: TfDataSourceType, config: TfObject, result: Props): TfObject {
  const state: TfObject = {};
  for (const attr of type.attributes) {
    const value = result[attr.field] !== undefined ? fromHandler(attr.node, result[attr.field]) : (config[attr.name] ?? null);
    state[attr.name] = value;
  }
  return state;
}
