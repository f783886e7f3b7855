import { nativeToken } from "../../core/definition/describe";
import { KINDS } from "../../kinds/kinds";

/**
 * The resource kinds the native plugin serves: each Pulumi type token, the handler type it routes
 * to (provider/registry.ts, the same handlers the dynamic providers use) and the outputs that are
 * secret whatever the inputs were.
 */
export interface NativeKind {
  /** The handler's type, e.g. `cmassh:Cluster`. */
  handlerType: string;
  /** Outputs always returned secret (credentials the platform hands out). */
  secretOutputs: readonly string[];
}

/** The plugin's package name: tokens are `clusterform:<platform>:<Kind>`. */
export const PACKAGE = "clusterform";

/** Token to kind, from the resource definitions (provider/kinds/kinds.ts): every kind is served. */
export const NATIVE_KINDS: Readonly<Record<string, NativeKind>> = Object.fromEntries(
  KINDS.map((kind) => [
    nativeToken(kind),
    {
      handlerType: kind.type,
      secretOutputs: Object.entries(kind.outputs)
        .filter(([, output]) => output.secret)
        .map(([key]) => key),
    },
  ]),
);

/**
 * The kind of a type token.
 * @throws Error naming the token and the tokens this release serves.
 */
export function kindOf(token: string): NativeKind {
  const kind = NATIVE_KINDS[token];
  if (!kind) {
    throw new Error(`clusterform: unknown resource type "${token}"; this plugin serves: ${Object.keys(NATIVE_KINDS).join(", ")}`);
  }
  return kind;
}
