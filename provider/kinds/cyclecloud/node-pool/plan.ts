import type { KindPlanner, PlannedOperation } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { targetNodes } from "./pool";

type Props = Record<string, unknown>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const coresOf = (props: Props): number => (typeof props.coresPerNode === "number" ? props.coresPerNode : 1);

/**
 * The one call that brings a pool of `current` nodes (`names`, oldest first) to the size `news`
 * asks for: CreateNodes for the difference, or RemoveNodes of the newest surplus (the nodes
 * {@link import("./pool").chooseSurplus} picks when every node is Ready). Nothing when equal.
 */
export function resizeCalls(cluster: string | undefined, names: readonly string[], news: Props, coresPerNode: number): PlannedOperation[] {
  const size = news.count ?? news.coreCount;
  if (typeof size !== "number") {
    return [op("CreateNodes|RemoveNodes", cluster, { count: size }, "resizes the pool to a size known only at `up`", ["capacity-removed"])];
  }
  const target = targetNodes(news as { count?: number; coreCount?: number }, coresPerNode);
  if (target > names.length) {
    const count = target - names.length;
    return [op("CreateNodes", cluster, { count, nodearray: news.nodearray, machineType: news.machineType }, `adds ${count} node(s) to nodearray ${news.nodearray} (${names.length} -> ${target})`)];
  }
  if (target < names.length) {
    const removed = [...names].reverse().slice(0, names.length - target);
    return [op("RemoveNodes", cluster, { names: removed }, `removes ${removed.length} node(s): ${removed.join(", ")} (${names.length} -> ${target})`, ["capacity-removed"])];
  }
  return [];
}

/** CycleCloud node pools: a resize is one CreateNodes or one RemoveNodes; every other field replaces. */
export const nodePoolPlanner: KindPlanner = {
  update: (olds, news) => resizeCalls(known(news.clusterName), strings(olds.nodeNames), news, coresOf(olds)),
  create: (news) =>
    news.count !== undefined
      ? resizeCalls(known(news.clusterName), [], news, 1)
      : // The cores per node are read from the cluster when the create runs.
        [op("CreateNodes", known(news.clusterName), { coreCount: news.coreCount, nodearray: news.nodearray, machineType: news.machineType }, `adds nodes for ${news.coreCount} cores to nodearray ${news.nodearray}`)],
  delete: (olds) => {
    const names = strings(olds.nodeNames);
    if (names.length === 0) return [];
    return [op("RemoveNodes", known(olds.clusterName), { names }, `deletes the pool's ${names.length} node(s): ${names.join(", ")}`, ["deletes", "capacity-removed"])];
  },
};
