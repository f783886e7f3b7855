import type { Kind } from "../definition/kind";
import { clusterPlanner as cmasshCluster } from "../resources/cmassh/cluster/plan";
import { nodePoolPlanner as cmasshNodePool } from "../resources/cmassh/node-pool/plan";
import { nodePoolPlanner as cyclecloudNodePool } from "../resources/cyclecloud/node-pool/plan";
import { KINDS } from "../resources/kinds";
import { resourcePoolPlanner } from "../resources/peloton/resource-pool/plan";
import { statelessJobPlanner } from "../resources/peloton/stateless-job/plan";
import { catalogPlanner } from "../resources/senlin/catalog-plan";
import { clusterPlanner as senlinCluster } from "../resources/senlin/cluster/plan";
import { snapshotPlanner } from "../resources/vcluster/snapshot/plan";
import { vclusterPlanner } from "../resources/vcluster/vcluster/plan";
import type { KindPlanner } from "./operation";

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
