import type { Kind } from "../../core/definition/kind";
import { clusterPlanner as cmasshCluster } from "../../kinds/cmassh/cluster/plan";
import { nodePoolPlanner as cmasshNodePool } from "../../kinds/cmassh/node-pool/plan";
import { nodePoolPlanner as cyclecloudNodePool } from "../../kinds/cyclecloud/node-pool/plan";
import { KINDS } from "../../kinds/kinds";
import { resourcePoolPlanner } from "../../kinds/peloton/resource-pool/plan";
import { statelessJobPlanner } from "../../kinds/peloton/stateless-job/plan";
import { catalogPlanner } from "../../kinds/senlin/catalog-plan";
import { clusterPlanner as senlinCluster } from "../../kinds/senlin/cluster/plan";
import { snapshotPlanner } from "../../kinds/vcluster/snapshot/plan";
import { vclusterPlanner } from "../../kinds/vcluster/vcluster/plan";
import type { KindPlanner } from "../../core/plan/operation";

/** Every kind's planner by its type. */
export const PLANNERS: Readonly<Record<string, KindPlanner>> = {
  "cmassh:Cluster": cmasshCluster,
  "cmassh:NodePool": cmasshNodePool,
  "cyclecloud:NodePool": cyclecloudNodePool,
  "senlin:Cluster": senlinCluster,
  "senlin:Profile": catalogPlanner("Profile"),
  "senlin:Policy": catalogPlanner("Policy"),
  "peloton:ResourcePool": resourcePoolPlanner,
  "peloton:StatelessJob": statelessJobPlanner,
  "vcluster:VCluster": vclusterPlanner,
  "vcluster:Snapshot": snapshotPlanner,
};

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
  const kind = KINDS.find((k) => type === k.type || type.endsWith(`/${k.type}`) || type.endsWith(`:${k.type}`)) ?? KINDS.find((k) => k.type === fromProvider);
  const planner = kind ? PLANNERS[kind.type] : undefined;
  return kind && planner ? { kind, planner } : undefined;
}
