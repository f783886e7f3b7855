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

/** Token to kind. */
export const NATIVE_KINDS: Readonly<Record<string, NativeKind>> = {
  "clusterform:cmassh:Cluster": { handlerType: "cmassh:Cluster", secretOutputs: ["kubeconfig"] },
  "clusterform:cmassh:NodePool": { handlerType: "cmassh:NodePool", secretOutputs: [] },
  "clusterform:cyclecloud:NodePool": { handlerType: "cyclecloud:NodePool", secretOutputs: [] },
  "clusterform:senlin:Cluster": { handlerType: "senlin:Cluster", secretOutputs: [] },
  "clusterform:peloton:ResourcePool": { handlerType: "peloton:ResourcePool", secretOutputs: [] },
  "clusterform:peloton:StatelessJob": { handlerType: "peloton:StatelessJob", secretOutputs: [] },
  "clusterform:vcluster:VCluster": { handlerType: "vcluster:VCluster", secretOutputs: ["kubeconfig"] },
  "clusterform:vcluster:Snapshot": { handlerType: "vcluster:Snapshot", secretOutputs: [] },
};

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
