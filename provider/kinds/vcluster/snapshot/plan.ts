import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";

/** vcluster snapshots: every field replaces, so a change deletes the snapshot and takes a new one. */
export const snapshotPlanner: KindPlanner = {
  update: () => [],
  create: (news) => {
    const [namespace, name] = [known(news.namespace), known(news.vclusterName)];
    return [op("SnapshotVCluster", namespace && name ? `${namespace}/${name}` : undefined, { includeWorkloads: news.includeWorkloads ?? false }, `snapshots vcluster ${news.namespace}/${news.vclusterName}`)];
  },
  delete: (_olds, id) => [op("DeleteSnapshot", id, {}, "deletes the snapshot", ["deletes"])],
};
