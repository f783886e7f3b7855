import { platformOwnsCapacity } from "../../../core/capacity";
import { type CallOf, undecided } from "../../../core/plan/calls";
import type { KindPlanner, PlannedCall } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { targetNodes } from "./pool";
import { POWER, powerOf } from "./power";
import { NODE_POOL_CALLS, type PowerState } from "./schema";

type Props = Record<string, unknown>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const coresOf = (props: Props): number => (typeof props.coresPerNode === "number" ? props.coresPerNode : 1);

/**
 * The one call that brings a pool of `current` nodes (`names`, oldest first) to the size `news`
 * asks for: CreateNodes for the difference, or RemoveNodes of the newest surplus (the nodes
 * {@link import("./pool").chooseSurplus} picks when every node is Ready). Nothing when equal.
 */
export function resizeCalls(cluster: string | undefined, names: readonly string[], news: Props, coresPerNode: number): PlannedCall<CallOf<typeof NODE_POOL_CALLS>>[] {
  const size = news.count ?? news.coreCount;
  if (typeof size !== "number") {
    return [op(undecided(NODE_POOL_CALLS.CreateNodes, NODE_POOL_CALLS.RemoveNodes), cluster, { count: size }, "resizes the pool to a size known only at `up`", ["capacity-removed"])];
  }
  const target = targetNodes(news as { count?: number; coreCount?: number }, coresPerNode);
  if (target > names.length) {
    const count = target - names.length;
    return [op(NODE_POOL_CALLS.CreateNodes, cluster, { count, nodearray: news.nodearray, machineType: news.machineType }, `adds ${count} node(s) to nodearray ${news.nodearray} (${names.length} -> ${target})`)];
  }
  if (target < names.length) {
    const removed = [...names].reverse().slice(0, names.length - target);
    return [op(NODE_POOL_CALLS.RemoveNodes, cluster, { names: removed }, `removes ${removed.length} node(s): ${removed.join(", ")} (${names.length} -> ${target})`, ["capacity-removed"])];
  }
  return [];
}

/** How many nodes the pool has after a resize to `news` (undefined while the size is unknown). */
function sizeAfter(current: number, news: Props, coresPerNode: number): number | undefined {
  const size = news.count ?? news.coreCount;
  if (size === undefined) return current;
  return typeof size === "number" ? targetNodes(news as { count?: number; coreCount?: number }, coresPerNode) : undefined;
}

/**
 * The call that brings the pool's `nodes` nodes (undefined: not known before `up`) to power state
 * `to`: StartNodes, DeallocateNodes or ShutdownNodes; nothing when `from` is already `to`.
 */
export function powerCalls(cluster: string | undefined, nodes: number | undefined, from: PowerState, to: PowerState): PlannedCall<CallOf<typeof NODE_POOL_CALLS>>[] {
  if (from === to) return [];
  const { call, verb } = POWER[to];
  const which = nodes === undefined ? "the pool's nodes" : `the pool's ${nodes} node(s)`;
  const disruptions = to === "running" ? [] : (["capacity-removed"] as const);
  return [op(call as CallOf<typeof NODE_POOL_CALLS>, cluster, { powerState: to, from }, `${verb} ${which} (powerState ${from} -> ${to})`, [...disruptions])];
}

/**
 * CycleCloud node pools: a resize is one CreateNodes or one RemoveNodes; a new `powerState` one
 * StartNodes (before a resize, which needs running nodes), DeallocateNodes or ShutdownNodes (after
 * it); every other field replaces.
 */
export const nodePoolPlanner: KindPlanner<CallOf<typeof NODE_POOL_CALLS>> = {
  update(olds, news) {
    const cluster = known(news.clusterName);
    const names = strings(olds.nodeNames);
    const [from, to] = [powerOf(olds.powerState), powerOf(news.powerState)];
    // A size CycleCloud owns is never resized by an update (news hold the recorded size: core/capacity.ts).
    const resize = platformOwnsCapacity(news) ? [] : resizeCalls(cluster, names, news, coresOf(olds));
    if (to === "running") return [...powerCalls(cluster, names.length, from, to), ...resize];
    return [...resize, ...powerCalls(cluster, sizeAfter(names.length, news, coresOf(olds)), from, to)];
  },
  create(news) {
    const cluster = known(news.clusterName);
    const parks = powerCalls(cluster, typeof news.count === "number" ? news.count : undefined, "running", powerOf(news.powerState));
    if (news.count !== undefined) return [...resizeCalls(cluster, [], news, 1), ...parks];
    // The cores per node are read from the cluster when the create runs.
    const summary = `adds nodes for ${news.coreCount} cores to nodearray ${news.nodearray}`;
    return [op(NODE_POOL_CALLS.CreateNodes, cluster, { coreCount: news.coreCount, nodearray: news.nodearray, machineType: news.machineType }, summary), ...parks];
  },
  delete: (olds) => {
    const names = strings(olds.nodeNames);
    if (names.length === 0) return [];
    return [op(NODE_POOL_CALLS.RemoveNodes, known(olds.clusterName), { names }, `deletes the pool's ${names.length} node(s): ${names.join(", ")}`, ["deletes", "capacity-removed"])];
  },
};
