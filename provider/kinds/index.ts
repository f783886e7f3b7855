import type { Kind } from "../core/definition/kind";

/**
 * Every resource kind, by its type token, in the order documents list them: the one list of kinds.
 * The dynamic provider's routing, the native plugin's tokens, the Terraform types, the importers,
 * the planners, the schema and the SDKs all derive from it. Each kind loads on first use, so a
 * program of one platform never loads another's code (and its operations load only at the first
 * platform call).
 */
export const KINDS = {
  "cmassh:Cluster": () => import("./cmassh/cluster/kind").then((m) => m.cmasshCluster),
  "cmassh:NodePool": () => import("./cmassh/node-pool/kind").then((m) => m.cmasshNodePool),
  "cyclecloud:NodePool": () => import("./cyclecloud/node-pool/kind").then((m) => m.cyclecloudNodePool),
  "senlin:Cluster": () => import("./senlin/cluster/kind").then((m) => m.senlinCluster),
  "senlin:Profile": () => import("./senlin/profile/kind").then((m) => m.senlinProfile),
  "senlin:Policy": () => import("./senlin/policy/kind").then((m) => m.senlinPolicy),
  "senlin:Receiver": () => import("./senlin/receiver/kind").then((m) => m.senlinReceiver),
  "peloton:ResourcePool": () => import("./peloton/resource-pool/kind").then((m) => m.pelotonResourcePool),
  "peloton:StatelessJob": () => import("./peloton/stateless-job/kind").then((m) => m.pelotonStatelessJob),
  "vcluster:VCluster": () => import("./vcluster/vcluster/kind").then((m) => m.vclusterVCluster),
  "vcluster:Snapshot": () => import("./vcluster/snapshot/kind").then((m) => m.vclusterSnapshot),
};

// Each loader's kind carries the type token it is listed under: a kind filed under another's token is a compile error.
const TOKENS_MATCH: { readonly [T in keyof typeof KINDS]: () => Promise<{ readonly type: T }> } = KINDS;
void TOKENS_MATCH;

/** A kind's type token, e.g. `cmassh:NodePool`. */
export type KindType = keyof typeof KINDS;

/** Every type token this release serves, in document order; loads nothing. */
export const KIND_TYPES = Object.keys(KINDS) as KindType[];

/** Whether `type` is a kind of this release. */
export function isKindType(type: string): type is KindType {
  return Object.hasOwn(KINDS, type);
}

/**
 * The kind of a type token.
 * @throws Error naming the type and the types this release serves when it serves no such kind.
 */
export async function kindOf(type: string): Promise<Kind> {
  if (!isKindType(type)) throw new Error(`clusterform: unknown resource type "${type}"; this release knows: ${KIND_TYPES.join(", ")}`);
  return (await KINDS[type]()) as unknown as Kind;
}

/** Every kind, in document order (loads every definition: generators and the full Terraform schema need them). */
export async function allKinds(): Promise<Kind[]> {
  return Promise.all(KIND_TYPES.map((type) => kindOf(type)));
}
