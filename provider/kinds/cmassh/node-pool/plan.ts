import type { CallOf } from "../../../core/plan/calls";
import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { NODE_POOL_CALLS, type NODE_POOL_UPDATE_CALLS } from "./schema";

type Props = Record<string, unknown>;

/** `cluster/pool`, as the pool's id and the platform's audit name it; undefined while unknown. */
function poolRef(props: Props, id?: string): string | undefined {
  if (id?.includes("/")) return id;
  const [cluster, name] = [known(props.clusterName), known(props.name)];
  return cluster && name ? `${cluster}/${name}` : undefined;
}

/** cma-ssh node pools: `count` is one ScaleNodePool; every other field replaces. */
export const nodePoolPlanner: KindPlanner<CallOf<typeof NODE_POOL_CALLS>, CallOf<typeof NODE_POOL_UPDATE_CALLS>> = {
  update(olds, news, diff, id) {
    if (!diff.updates.some((u) => u.field === "count")) return [];
    const [from, to] = [olds.count, news.count];
    const fewer = typeof from === "number" && typeof to === "number" && to < from;
    const summary = fewer ? `scales down from ${from} to ${to} machine(s): ${from - to} removed` : `scales from ${from} to ${to} machine(s)`;
    return [op(NODE_POOL_CALLS.ScaleNodePool, poolRef(olds, id), { count: to }, summary, fewer ? ["capacity-removed"] : [])];
  },
  create: (news) => [op(NODE_POOL_CALLS.AddNodePool, poolRef(news), { count: news.count, instanceType: news.instanceType }, `adds a pool of ${news.count} ${news.instanceType} machine(s)`)],
  delete: (olds, id) => [op(NODE_POOL_CALLS.DeleteNodePool, poolRef(olds, id), {}, `deletes the pool and its ${olds.count ?? "?"} machine(s)`, ["deletes", "capacity-removed"])],
};
