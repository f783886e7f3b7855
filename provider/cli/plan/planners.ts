import type { Kind } from "../../core/definition/kind";
import type { KindPlanner } from "../../core/plan/operation";
import { allKinds } from "../../kinds";

let loaded: readonly Kind[] | undefined;

/**
 * Loads every kind once (its fields and planner; never a platform client). The plan command and
 * the policy pack call it before they read a preview; then {@link plannedKindOf} answers at once.
 */
export async function loadKinds(): Promise<readonly Kind[]> {
  loaded ??= await allKinds();
  return loaded;
}

function kinds(): readonly Kind[] {
  if (!loaded) throw new Error("clusterform: the resource kinds are not loaded yet (await loadKinds() first)");
  return loaded;
}

/** What a kind needs for planning: its field-policy table and its planner. */
export interface PlannedKind {
  kind: Kind;
  planner: KindPlanner;
}

/**
 * The kind of a resource as the engine names it: the dynamic type (`pulumi-nodejs:dynamic/cmassh:Cluster`),
 * a native token ending in the kind's type, or, for a dynamic resource registered under the
 * generic type, the kind its `__provider` text builds. Undefined for resources of other packages.
 */
export function plannedKindOf(type: string, inputs?: Record<string, unknown>): PlannedKind | undefined {
  const fromProvider = typeof inputs?.__provider === "string" ? /dynamicProvider\("([^"]+)"\)/.exec(inputs.__provider)?.[1] : undefined;
  const all = kinds();
  const kind = all.find((k) => type === k.type || type.endsWith(`/${k.type}`) || type.endsWith(`:${k.type}`)) ?? all.find((k) => k.type === fromProvider);
  return kind ? { kind, planner: kind.planner } : undefined;
}

/** The kind of a Terraform type name (`clusterform_cmassh_cluster`), or undefined. */
export function kindOfTerraformType(typeName: string | undefined, name: (kindType: string) => string): Kind | undefined {
  return kinds().find((k) => name(k.type) === typeName);
}
