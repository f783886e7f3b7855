import type { CycleCloudClient } from "../../../clients/cyclecloud/client";
import type { NodeQuery, NodeRecord } from "../../../clients/cyclecloud/types";
import type { Deadline } from "../../../core/deadline";
import { waitFor } from "../../../core/wait";
import { roleOf } from "./pool";

const q = (s: string) => JSON.stringify(s);

function describeNodes(nodes: readonly NodeRecord[]): string {
  if (nodes.length === 0) return "no nodes";
  const shown = nodes.slice(0, 8).map((n) => `${n.Name} ${n.State ?? "?"}`);
  return shown.join(", ") + (nodes.length > 8 ? `, and ${nodes.length - 8} more` : "");
}

/** The nodes' states and reasons, or undefined when there are none. */
function reasons(nodes: readonly NodeRecord[]): string | undefined {
  if (nodes.length === 0) return undefined;
  return nodes.map((n) => `node ${q(n.Name)} is ${n.State}: ${n.StatusMessage || "CycleCloud gave no reason"}`).join("; ");
}

/** A wait for Ready ends at a node that is lost (failed, or gone to rest). */
const lostNodes = (nodes: readonly NodeRecord[]) => reasons(nodes.filter((n) => roleOf(n) === "lost"));

/** A wait for another resting state ends only at a Failed node. */
const failedNodes = (nodes: readonly NodeRecord[]) => reasons(nodes.filter((n) => n.State === "Failed"));

/** Waits until `list` shows at least `expected` nodes, every one in `state`; `failure` ends it early. */
async function waitForNodes(
  list: () => Promise<NodeRecord[]>,
  state: string,
  failure: (nodes: readonly NodeRecord[]) => string | undefined,
  what: string,
  expected: number,
  deadline: Deadline,
  progress?: (message: string) => void,
): Promise<NodeRecord[]> {
  const result = await waitFor({
    poll: list,
    isDone: (nodes) => nodes.length >= expected && nodes.every((n) => n.State === state),
    failure,
    describe: describeNodes,
    deadline,
    what: `${what} to be ${state}`,
    progress,
  });
  return result.value;
}

/**
 * Waits until `list` shows at least `expected` nodes, every one Ready. CycleCloud operations carry
 * no progress, so progress is each node's State; a node that fails ends the wait with its message.
 * @param what - the nodes awaited, e.g. `the 2 node(s) of CreateNodes operation "x" in cluster "demo"`.
 */
export async function waitForNodesReady(
  list: () => Promise<NodeRecord[]>,
  what: string,
  expected: number,
  deadline: Deadline,
  progress?: (message: string) => void,
): Promise<NodeRecord[]> {
  return waitForNodes(list, "Ready", lostNodes, what, expected, deadline, progress);
}

/** The nodes of an operation or request, for {@link waitForNodesReady}. */
export function nodesOf(client: CycleCloudClient, cluster: string, query: NodeQuery, deadline: Deadline): () => Promise<NodeRecord[]> {
  return async () => (await client.listNodes(cluster, query, { deadline })).nodes;
}

/** Waits until none of `ids` has a record in the cluster any more. */
export async function waitForNodesGone(
  client: CycleCloudClient,
  cluster: string,
  ids: readonly string[],
  deadline: Deadline,
  progress?: (message: string) => void,
): Promise<void> {
  const wanted = new Set(ids);
  await waitFor({
    poll: async () => (await client.listNodes(cluster, {}, { deadline })).nodes.filter((n) => wanted.has(n.NodeId)),
    isDone: (left) => left.length === 0,
    describe: describeNodes,
    deadline,
    what: `${ids.length} node(s) of cluster ${q(cluster)} to be removed`,
    progress,
  });
}

/**
 * Waits until `list` shows at least `expected` nodes, every one in `state` (Ready, Deallocated,
 * Terminated). Unlike {@link waitForNodesReady} a node resting elsewhere is not a failure (a
 * node just asked to start may still show Deallocated); only a Failed node ends the wait early.
 * @param what - the nodes awaited, e.g. `the 2 node(s) of the pool in cluster "demo"`.
 */
export async function waitForNodesIn(
  list: () => Promise<NodeRecord[]>,
  state: string,
  what: string,
  expected: number,
  deadline: Deadline,
  progress?: (message: string) => void,
): Promise<NodeRecord[]> {
  return waitForNodes(list, state, failedNodes, what, expected, deadline, progress);
}
