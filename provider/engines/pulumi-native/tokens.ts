import type { Kind } from "../../core/definition/kind";
import type { Lookup } from "../../core/definition/lookup";
import { isKindType, KIND_TYPES, kindOf } from "../../kinds";

/** The plugin's package name: tokens are `clusterform:<platform>:<Kind>`. */
export const PACKAGE = "clusterform";

/** The native plugin's token of a kind type, e.g. `clusterform:cmassh:NodePool`. */
export function tokenOf(type: string): string {
  return `${PACKAGE}:${type}`;
}

/**
 * The kind type of a token (`clusterform:cmassh:Cluster` is `cmassh:Cluster`).
 * @throws Error naming the token and the tokens this release serves.
 */
export function kindTypeOf(token: string): string {
  const type = token.startsWith(`${PACKAGE}:`) ? token.slice(PACKAGE.length + 1) : "";
  if (!isKindType(type)) {
    throw new Error(`clusterform: unknown resource type "${token}"; this plugin serves: ${KIND_TYPES.map(tokenOf).join(", ")}`);
  }
  return type;
}

/** Outputs always returned secret (credentials the platform hands out), whatever the inputs were. */
export function secretOutputsOf(kind: Kind): string[] {
  return Object.entries(kind.outputs)
    .filter(([, output]) => output.secret)
    .map(([key]) => key);
}

/**
 * The kind and the lookup of a function token (`clusterform:cmassh:getCluster` is `cmassh:Cluster`'s
 * `getCluster`), loading only that platform's kinds.
 * @throws Error naming the token and the platform's functions when it serves no such function.
 */
export async function lookupOfToken(token: string): Promise<{ kind: Kind; lookup: Lookup }> {
  const [pkg, module, name] = token.split(":");
  const kinds = pkg === PACKAGE ? await Promise.all(KIND_TYPES.filter((t) => t.startsWith(`${module}:`)).map((t) => kindOf(t))) : [];
  for (const kind of kinds) {
    const lookup = kind.lookups?.find((l) => l.name === name);
    if (lookup) return { kind, lookup };
  }
  const known = kinds.flatMap((k) => (k.lookups ?? []).map((l) => `${PACKAGE}:${module}:${l.name}`));
  throw new Error(`clusterform: unknown function "${token}"; ${known.length > 0 ? `this plugin serves: ${known.join(", ")}` : "functions are clusterform:<platform>:get<Name>"}`);
}

/** The result fields a lookup always returns secret (a kubeconfig), in Pulumi names. */
export function secretResultsOf(lookup: Lookup): string[] {
  return Object.entries(lookup.result)
    .filter(([, field]) => field.secret)
    .map(([key, field]) => field.names?.pulumi ?? key);
}

/**
 * The one input the native classes' static `get(name, id)` sends: the engine passes a `get`'s
 * inputs to Read (an import sends none), so the plugin reads the object without taking it for an
 * import (no hold in the run, no warning about inputs the platform does not report).
 */
export const GET_MARKER = "__clusterformGet";
