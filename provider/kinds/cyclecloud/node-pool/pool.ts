import { createHash } from "node:crypto";
import type { NodeRecord } from "../../../clients/cyclecloud/types";
import { seedValues } from "../../fields";
import { type ParkedState, parkedOf } from "./power";
import { nodePoolKind } from "./schema";

/** How the pool treats a node in each CycleCloud state. Unlisted (transitional) states count as coming up. */
export type NodeRole = "ready" | "starting" | "lost" | "leaving";

/**
 * `lost`: the node holds no working VM and never will by itself (failed to start, preempted,
 * deallocated): the pool removes it and adds a replacement. `leaving`: already on its way out.
 */
const ROLE_OF_STATE: Readonly<Record<string, NodeRole>> = {
  Ready: "ready",
  Failed: "lost",
  Deallocating: "lost",
  Deallocated: "lost",
  Terminated: "lost",
  Terminating: "leaving",
};

/** The pool's view of one node. */
export interface PoolNode {
  id: string;
  name: string;
  state: string;
  role: NodeRole;
  /** CycleCloud's explanation, e.g. why it failed. */
  statusMessage: string;
  /** The parked state the node rests in or is entering (power.ts). @default undefined (not parked) */
  parked?: ParkedState;
  /** The node is Failed. */
  failed: boolean;
}

/** The role of a node record. */
export function roleOf(record: NodeRecord): NodeRole {
  return ROLE_OF_STATE[record.State ?? ""] ?? "starting";
}

/** The pool's nodes among a cluster's records, in the order of `ids` (creation order). */
export function poolNodes(records: readonly NodeRecord[], ids: readonly string[]): PoolNode[] {
  const byId = new Map(records.map((r) => [r.NodeId, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{ id, name: r.Name, state: r.State ?? "", role: roleOf(r), statusMessage: r.StatusMessage ?? "", parked: parkedOf(r), failed: r.State === "Failed" }];
  });
}

/** Nodes that count toward the pool's size: Ready or on their way to it. */
export function aliveNodes(nodes: readonly PoolNode[]): PoolNode[] {
  return nodes.filter((n) => n.role === "ready" || n.role === "starting");
}

/** The number of nodes the inputs ask for: `count`, or enough nodes of `coresPerNode` vCPUs for `coreCount`. */
export function targetNodes(inputs: { count?: number; coreCount?: number }, coresPerNode: number): number {
  if (inputs.count !== undefined) return inputs.count;
  return Math.ceil((inputs.coreCount ?? 0) / Math.max(1, coresPerNode));
}

/**
 * The `surplus` nodes to remove on scale-down: nodes not Ready first (they give the least), then
 * the newest; `alive` is in creation order.
 */
export function chooseSurplus(alive: readonly PoolNode[], surplus: number): PoolNode[] {
  const newestFirst = [...alive].reverse();
  const ordered = [...newestFirst.filter((n) => n.role !== "ready"), ...newestFirst.filter((n) => n.role === "ready")];
  return ordered.slice(0, Math.max(0, surplus));
}

/**
 * The start of the pool's request ids: its ownership marker and a hash of the fields that force
 * replacement, so a replacement that changes one of them asks under new ids.
 */
export function requestIdBase(owner: string, replaceFields: readonly unknown[]): string {
  const hash = createHash("sha256").update(JSON.stringify(replaceFields)).digest("hex").slice(0, 8);
  return `clusterform-${owner}-${hash}`;
}

/** The request id of the pool's `seq`-th nodes/create. */
export function requestIdOf(base: string, seq: number): string {
  return `${base}-${seq}`;
}

/** The pool's identity and id: its cluster, nodearray and request-id base (owner and seeds). */
export function poolIdentity(inputs: Record<string, unknown>): string {
  return `${inputs.clusterName}/${inputs.nodearray}/${requestIdBase(String(inputs.owner), seedValues(nodePoolKind, inputs))}`;
}
