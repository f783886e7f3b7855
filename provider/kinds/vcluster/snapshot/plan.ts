import type { CallOf } from "../../../core/plan/calls";
import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { SNAPSHOT_CALLS, type SNAPSHOT_UPDATE_CALLS } from "./schema";

/** vcluster snapshots: every field replaces, so a change deletes the snapshot and takes a new one. */
export const snapshotPlanner: KindPlanner<CallOf<typeof SNAPSHOT_CALLS>, CallOf<typeof SNAPSHOT_UPDATE_CALLS>> = {
  update: () => [],
  create: (news) => {
    const [namespace, name] = [known(news.namespace), known(news.vclusterName)];
    return [op(SNAPSHOT_CALLS.SnapshotVCluster, namespace && name ? `${namespace}/${name}` : undefined, { includeWorkloads: news.includeWorkloads ?? false }, `snapshots vcluster ${news.namespace}/${news.vclusterName}`)];
  },
  delete: (_olds, id) => [op(SNAPSHOT_CALLS.DeleteSnapshot, id, {}, "deletes the snapshot", ["deletes"])],
};
