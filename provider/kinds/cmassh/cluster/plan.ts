import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";

/**
 * cma-ssh clusters: a `kubernetesVersion` change asks which versions the cluster may move to
 * (GetUpgradeClusterInformation, refused before anything changes when the version is not offered),
 * then upgrades; every other field replaces.
 */
export const clusterPlanner: KindPlanner = {
  update(olds, news, diff, id) {
    if (!diff.updates.some((u) => u.field === "kubernetesVersion")) return [];
    const target = id ?? known(olds.name);
    const [from, to] = [olds.kubernetesVersion, news.kubernetesVersion];
    return [
      op("GetUpgradeClusterInformation", target, { version: to }, `checks that ${to} is offered (fails the update before any change if not)`),
      op("UpgradeCluster", target, { from, to }, `upgrades Kubernetes ${from} -> ${to}`, ["upgrade"]),
    ];
  },
  create: (news) => [op("CreateCluster", known(news.name), { kubernetesVersion: news.kubernetesVersion }, `creates a cluster running Kubernetes ${news.kubernetesVersion}`)],
  delete: (olds, id) => [op("DeleteCluster", id ?? known(olds.name), {}, "deletes the cluster and every machine in it", ["deletes", "capacity-removed"])],
};
