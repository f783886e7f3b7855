import type { Kind } from "../core/definition/kind";
import { clusterKind as cmasshCluster } from "./cmassh/cluster/schema";
import { nodePoolKind as cmasshNodePool } from "./cmassh/node-pool/schema";
import { nodePoolKind as cyclecloudNodePool } from "./cyclecloud/node-pool/schema";
import { resourcePoolKind } from "./peloton/resource-pool/schema";
import { statelessJobKind } from "./peloton/stateless-job/schema";
import { clusterKind as senlinCluster } from "./senlin/cluster/schema";
import { policyKind as senlinPolicy } from "./senlin/policy/schema";
import { profileKind as senlinProfile } from "./senlin/profile/schema";
import { snapshotKind } from "./vcluster/snapshot/schema";
import { vclusterKind } from "./vcluster/vcluster/schema";

/**
 * Every resource kind's definition, in the order documents list them. Loading this loads the
 * definitions (zod schemas) of every kind, never a platform client: generators and engine adapters
 * that need every kind's shape read it; the dynamic provider loads one kind's handler at a time.
 */
export const KINDS: readonly Kind[] = [
  cmasshCluster,
  cmasshNodePool,
  cyclecloudNodePool,
  senlinCluster,
  senlinProfile,
  senlinPolicy,
  resourcePoolKind,
  statelessJobKind,
  vclusterKind,
  snapshotKind,
] as unknown as readonly Kind[];

/** A kind by its type (`cmassh:NodePool`), or undefined. */
export function kindOf(type: string): Kind | undefined {
  return KINDS.find((k) => k.type === type);
}
