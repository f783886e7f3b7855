import type { CycleCloudClient } from "../../../clients/cyclecloud/client";
import type { NodeRecord } from "../../../clients/cyclecloud/types";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { offRefusal, POWER, parkedOf } from "./power";
import type { PowerState } from "./schema";
import { waitForNodesIn } from "./waits";

const q = (s: string) => JSON.stringify(s);

/** What a change of power state works with (a pool's convergence context fits it). */
export interface PowerContext {
  client: CycleCloudClient;
  inputs: { clusterName: string };
  deadline: Deadline;
  progress: (message: string) => void;
}

/** Whether a node already rests in, or is entering, power state `to`. */
function reached(record: NodeRecord, to: PowerState): boolean {
  return to === "running" ? parkedOf(record) === undefined : parkedOf(record) === to;
}

/**
 * Brings every node of the pool (`state.nodeIds`) to power state `to`: one nodes/start,
 * nodes/deallocate or nodes/shutdown naming the nodes not there yet, then a wait until each rests
 * in the state's node State. Failed nodes are left alone (they hold no VM; a running pool replaces
 * them). For `off`, the nodes must be Fixed and shut down by termination: checked before any call,
 * so a refusal changes nothing. A node CycleCloud refuses fails the change with its reason.
 */
export async function setPoolPower(cx: PowerContext, state: { nodeIds: string[]; lastOperationId: string }, to: PowerState): Promise<void> {
  const { client, inputs, deadline } = cx;
  const { action, call, state: resting } = POWER[to];
  const cluster = inputs.clusterName;
  const ids = new Set(state.nodeIds);
  const listed = async () => (await client.listNodes(cluster, {}, { deadline })).nodes;
  const pool = (await listed()).filter((n) => ids.has(n.NodeId) && n.State !== "Failed");
  // The wait watches the same nodes, so one that fails on the way ends it with its reason.
  const members = new Set(pool.map((n) => n.NodeId));
  const poolOf = async () => (await listed()).filter((n) => members.has(n.NodeId));
  const refusal = to === "off" ? offRefusal(pool) : undefined;
  if (refusal) {
    throw new ClusterformError({ code: "FailedPrecondition", platformCode: "NOT_SHUT_DOWN", operation: `${call} of cluster ${q(cluster)}`, platformMessage: `powerState "off" ${refusal}; nothing was changed` });
  }
  const pending = pool.filter((n) => !reached(n, to)).map((n) => n.Name);
  if (pending.length > 0) {
    cx.progress(`${action} node(s) ${pending.join(", ")} (powerState ${to})`);
    const result = await client.manageNodes(cluster, action, { names: pending }, { deadline });
    state.lastOperationId = result.value.operationId;
    const refused = result.value.nodes.filter((n) => n.status === "Error");
    if (refused.length > 0) {
      throw new ClusterformError({
        code: "FailedPrecondition",
        platformCode: "NODE_ERROR",
        operation: `${call} ${pending.join(", ")} of cluster ${q(cluster)}`,
        platformMessage: refused.map((n) => `${n.name}: ${n.error ?? "refused"}`).join("; "),
      });
    }
  }
  await waitForNodesIn(poolOf, resting, `the pool's ${pool.length} node(s) in cluster ${q(cluster)}`, pool.length, deadline, cx.progress);
}
