import { randomInt, randomUUID } from "node:crypto";
import type { ActionRecord, ClusterRecord, ClusterStatus, NodeRecord, NodeStatus } from "./records";
import type { SenlinStore } from "./store";

/**
 * Sets a cluster's status from its active members after an operation, as the engine's
 * `eval_status` does: below min_size ERROR, below desired_capacity or above max_size WARNING.
 */
export function evalClusterStatus(store: SenlinStore, clusterId: string, operation: string, atMs: number): void {
  const cluster = store.clusters.get(clusterId);
  if (!cluster) return;
  const active = store.members(clusterId).filter((n) => n.status === "ACTIVE").length;
  const verdicts: [boolean, ClusterStatus, string][] = [
    [active < cluster.minSize, "ERROR", `is below min_size (${cluster.minSize})`],
    [active < cluster.desiredCapacity, "WARNING", `is below desired_capacity (${cluster.desiredCapacity})`],
    [cluster.maxSize >= 0 && active > cluster.maxSize, "WARNING", `is above max_size (${cluster.maxSize})`],
    [true, "ACTIVE", `is equal or above desired_capacity (${cluster.desiredCapacity})`],
  ];
  const [, status, detail] = verdicts.find(([applies]) => applies)!;
  store.clusters.update(clusterId, (c) => ({
    ...c,
    status,
    statusReason: `${operation}: number of active nodes ${detail}.`,
    updatedAtMs: c.createdAtMs === null ? null : atMs,
  }));
}

/** A new member node, CREATING, at the cluster's next index. */
export function createMember(store: SenlinStore, cluster: ClusterRecord, atMs: number, status: NodeStatus = "CREATING"): NodeRecord {
  const index = store.clusters.get(cluster.id)?.nextIndex ?? cluster.nextIndex;
  const node: NodeRecord = {
    id: randomUUID(),
    // Senlin's default node name format, `node-$8R`: eight random characters, a letter first.
    name: `node-${randomName(8)}`,
    user: cluster.user,
    project: cluster.project,
    domain: cluster.domain,
    profileId: cluster.profileId,
    clusterId: cluster.id,
    index,
    role: "",
    status,
    statusReason: "Creation in progress",
    physicalId: null,
    metadata: {},
    data: {},
    initAtMs: atMs,
    createdAtMs: null,
    updatedAtMs: null,
  };
  store.nodes.insert(node);
  store.clusters.update(cluster.id, (c) => ({ ...c, nextIndex: index + 1 }));
  return node;
}

/** Marks nodes ACTIVE, as a finished creation or recovery leaves them, with a server id. */
export function activateNodes(store: SenlinStore, ids: readonly string[], reason: string, atMs: number): void {
  for (const id of ids) {
    store.nodes.update(id, (n) => ({
      ...n,
      status: "ACTIVE",
      statusReason: reason,
      physicalId: n.physicalId ?? randomUUID(),
      createdAtMs: n.createdAtMs ?? atMs,
      // The engine stamps updated_at with every status it sets, the first ACTIVE included.
      updatedAtMs: atMs,
    }));
  }
}

/** Sets the status of several nodes. */
export function setNodeStatus(store: SenlinStore, ids: readonly string[], status: NodeStatus, reason: string): void {
  for (const id of ids) store.nodes.update(id, (n) => ({ ...n, status, statusReason: reason }));
}

/** Takes nodes out of their cluster: orphans them, or deletes them when `destroy`. */
export function removeNodes(store: SenlinStore, ids: readonly string[], destroy: boolean, atMs: number): void {
  for (const id of ids) {
    if (destroy) store.nodes.delete(id);
    else store.nodes.update(id, (n) => ({ ...n, clusterId: "", index: -1, updatedAtMs: atMs }));
  }
}

/** Members to remove when shrinking by `count`: ERROR nodes first, then the youngest (highest index). */
export function pickVictims(members: readonly NodeRecord[], count: number): string[] {
  const ranked = [...members].sort((a, b) => Number(b.status === "ERROR") - Number(a.status === "ERROR") || b.index - a.index);
  return ranked.slice(0, Math.max(0, count)).map((n) => n.id);
}

/** Statuses a failure leaves busy nodes in. */
const BUSY: ReadonlySet<NodeStatus> = new Set(["CREATING", "DELETING", "RECOVERING", "UPDATING", "OPERATING"]);

/** Ends an action as FAILED: its cluster goes to ERROR, nodes it was working on too. */
export function failAction(store: SenlinStore, action: ActionRecord, reason: string): void {
  store.actions.update(action.id, (a) => ({ ...a, status: "FAILED", statusReason: reason, updatedAtMs: a.endMs }));
  const nodeTarget = store.nodes.get(action.target);
  if (nodeTarget && BUSY.has(nodeTarget.status)) setNodeStatus(store, [nodeTarget.id], "ERROR", reason);
  if (!action.clusterId || action.action.startsWith("NODE_")) return;
  const busy = store.members(action.clusterId).filter((n) => BUSY.has(n.status));
  setNodeStatus(
    store,
    busy.map((n) => n.id),
    "ERROR",
    reason,
  );
  store.clusters.update(action.clusterId, (c) => ({ ...c, status: "ERROR", statusReason: reason, updatedAtMs: action.endMs }));
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Senlin's `random_name`: a letter, then letters and digits. */
export function randomName(length: number): string {
  const tail = `${LETTERS}0123456789`;
  return LETTERS[randomInt(LETTERS.length)] + Array.from({ length: length - 1 }, () => tail[randomInt(tail.length)]).join("");
}
