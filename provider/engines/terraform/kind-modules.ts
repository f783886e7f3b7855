import type { Kind } from "../../core/definition/kind";
import { KIND_TYPES, kindOf } from "../../kinds";

/** `clusterform_` plus the kind in snake_case: `cmassh:NodePool` is `clusterform_cmassh_node_pool`. */
export function terraformTypeName(kindType: string): string {
  const [api, kind] = kindType.split(":");
  return `clusterform_${api}_${snake(kind).replace(/^v_cluster$/, "vcluster")}`;
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** Terraform type name to kind type, from the one list of kinds (provider/kinds/index.ts). */
const KIND_OF_NAME: ReadonlyMap<string, string> = new Map(KIND_TYPES.map((type) => [terraformTypeName(type), type]));

/** Every type this release serves, without loading a definition. */
export const TYPE_NAMES: readonly string[] = [...KIND_OF_NAME.keys()];

/**
 * The kind of one Terraform type, or undefined for a type this release does not serve. Only that
 * kind's definition loads: tofu starts the provider several times per command, and most starts
 * answer calls about a few types.
 */
export async function loadKind(typeName: string): Promise<Kind | undefined> {
  const type = KIND_OF_NAME.get(typeName);
  return type === undefined ? undefined : kindOf(type);
}
