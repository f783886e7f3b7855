import type { Kind } from "../../core/definition/kind";
import { isKindType, KIND_TYPES } from "../../kinds";

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
