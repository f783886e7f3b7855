import type { KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";

type Props = Record<string, unknown>;

/** `cluster/pool`, as the pool's id and the platform's audit name it; undefined while unknown. */
function poolRef(props: Props, id?: string): string | undefined {
  if (id?.includes("/")) return id;
  const [cluster, name] = [known(props.clusterName), known(props.name)];
  return cluster && name ? `${cluster}/${name}` : undefined;
}

/** cma-ssh node pools: `count` is one ScaleNodePool; every other field replaces. */
export const nodePoolPlanner: KindPlanner = {
  update(olds, news, diff, id) {
    if (!diff.updates.some((u) => u.field === "count")) return [];
    const [from, to] = [olds.count, news.count];
    const fewer = typeof from === "number" && typeof to === "number" && to < from;
    const summary = fewer ? `scales down from ${from} to ${to} machine(s): ${from - to} removed` : `scales from ${from} to ${to} machine(s)`;
    return [op("ScaleNodePool", poolRef(olds, id), { count: to }, summary, fewer ? ["capacity-removed"] : [])];
  },
  create: (news) => [op("AddNodePool", poolRef(news), { count: news.count, instanceType: news.instanceType }, `adds a pool of ${news.count} ${news.instanceType} machine(s)`)],
  delete: (olds, id) => [op("DeleteNodePool", poolRef(olds, id), {}, `deletes the pool and its ${olds.count ?? "?"} machine(s)`, ["deletes", "capacity-removed"])],
};
