import type { CycleCloudClient } from "../../../clients/cyclecloud/client";
import type { BucketStatus, NodeCreationSet, NodeRecord } from "../../../clients/cyclecloud/types";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { carryOut, type Executors, type PlannedOperation } from "../../../core/plan/operation";
import { setPoolPower } from "./park";
import { aliveNodes, chooseSurplus, type PoolNode, poolNodes, requestIdOf, targetNodes } from "./pool";
import { powerOf } from "./power";
import { NODE_POOL_CALLS, type NodePoolInputs } from "./schema";
import { nodesOf, waitForNodesGone, waitForNodesReady } from "./waits";

const q = (s: string) => JSON.stringify(s);

/** What the stack remembers of a pool between operations (its outputs). */
export interface PoolState {
  /** The pool's nodes, in creation order. */
  nodeIds: string[];
  /** The sequence number of the last request id used. */
  requestSeq: number;
  lastOperationId: string;
  coresPerNode: number;
}

/** What one convergence works with. */
export interface ConvergeContext {
  client: CycleCloudClient;
  inputs: NodePoolInputs;
  /** The pool's request-id base. */
  requestBase: string;
  /** The pool's identity, for {@link ConvergeContext.confirmAdoption}. */
  identity: string;
  deadline: Deadline;
  progress: (message: string) => void;
  /** Asked before adopting nodes of a repeated request during a create. @default adoption needs no confirmation */
  confirmAdoption?: (operation: string, found: { identity: string; id: string }) => void;
  /**
   * CycleCloud owns the pool's size (an update with `capacityOwner: "platform"`): the rounds neither
   * add nor remove nodes, they only wait for the pool's nodes that are coming up. @default false
   */
  sizeOwnedByPlatform?: boolean;
}

/** The one thing to do next, from the pool's nodes and the size asked for. */
type Step =
  | { kind: "remove"; nodes: PoolNode[]; why: string }
  | { kind: "add"; count: number }
  | { kind: "wait" }
  | { kind: "done" };

/**
 * Lost nodes go first (replaced by the add that follows); then either the surplus goes or the
 * difference is added, never both; then the wait for every node to be Ready.
 */
export function nextStep(pool: readonly PoolNode[], target: number): Step {
  const lost = pool.filter((n) => n.role === "lost");
  if (lost.length > 0) return { kind: "remove", nodes: lost, why: "lost" };
  const alive = aliveNodes(pool);
  if (alive.length > target) return { kind: "remove", nodes: chooseSurplus(alive, alive.length - target), why: "surplus" };
  if (alive.length < target) return { kind: "add", count: target - alive.length };
  return pool.every((n) => n.role === "ready") ? { kind: "done" } : { kind: "wait" };
}

/** The most rounds of one convergence; each round reads the pool and takes one step. */
const MAX_ROUNDS = 12;
/** The most request ids tried past ones an earlier life of the pool used. */
const MAX_REQUEST_PROBES = 50;

/**
 * The executors of an update's planned calls (plan.ts): CreateNodes adds `count` nodes, RemoveNodes
 * removes the nodes it names (those still in the pool: one already gone needs no removal),
 * StartNodes, DeallocateNodes and ShutdownNodes bring every node of the pool to a power state.
 */
function plannedCalls(cx: ConvergeContext, state: PoolState): Executors<typeof NODE_POOL_CALLS> {
  return {
    [NODE_POOL_CALLS.CreateNodes]: (o) => addNodes(cx, state, Number(o.args.count)),
    async [NODE_POOL_CALLS.RemoveNodes](o) {
      const names = Array.isArray(o.args.names) ? o.args.names.map(String) : [];
      const records = (await cx.client.listNodes(cx.inputs.clusterName, {}, { deadline: cx.deadline })).nodes;
      const pool = poolNodes(records, state.nodeIds).filter((n) => n.role !== "leaving");
      // In the plan's order (newest first), which is the order the request lists them in.
      const named = names.flatMap((name) => pool.filter((n) => n.name === name));
      if (named.length > 0) await removeNodes(cx, state, named, "surplus");
    },
    [NODE_POOL_CALLS.StartNodes]: () => setPoolPower(cx, state, "running"),
    [NODE_POOL_CALLS.DeallocateNodes]: () => setPoolPower(cx, state, "deallocated"),
    [NODE_POOL_CALLS.ShutdownNodes]: () => setPoolPower(cx, state, "off"),
  };
}

/**
 * Carries out an update's planned calls (none for a create), then brings the pool to the size its
 * inputs ask for and waits until every node is Ready; updates `state` as it goes. After a planned
 * update the pool already has that size, so the rounds only read it; they act when the pool
 * changed since the state the plan was made from (a node failed, removed outside Pulumi), and
 * say so. A pool to be parked (`powerState`): a create sizes it, then parks it; an update only
 * carries out its plan, since parked nodes are the pool's and not lost ones to replace.
 */
export async function convergePool(cx: ConvergeContext, state: PoolState, planned: readonly PlannedOperation[] = [], creating = false): Promise<NodeRecord[]> {
  const { client, inputs, deadline } = cx;
  await carryOut<typeof NODE_POOL_CALLS>("cyclecloud:NodePool", planned, plannedCalls(cx, state));
  const power = powerOf(inputs.powerState);
  if (power !== "running") {
    if (creating) {
      await sizePool(cx, state, planned);
      await setPoolPower(cx, state, power);
    }
    const records = (await client.listNodes(inputs.clusterName, {}, { deadline })).nodes;
    return records.filter((r) => state.nodeIds.includes(r.NodeId));
  }
  return sizePool(cx, state, planned);
}

/** The rounds of a convergence: each reads the pool and takes one step until every node is Ready. */
async function sizePool(cx: ConvergeContext, state: PoolState, planned: readonly PlannedOperation[]): Promise<NodeRecord[]> {
  const { client, inputs, deadline } = cx;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const records = (await client.listNodes(inputs.clusterName, {}, { deadline })).nodes;
    // Nodes already terminating are on their way out and count for nothing.
    const pool = poolNodes(records, state.nodeIds).filter((n) => n.role !== "leaving");
    state.nodeIds = pool.map((n) => n.id);
    // A size CycleCloud owns is the nodes it left alive: lost ones are its to replace or remove.
    const counted = cx.sizeOwnedByPlatform ? pool.filter((n) => n.role !== "lost") : pool;
    const step = nextStep(counted, cx.sizeOwnedByPlatform ? aliveNodes(counted).length : targetNodes(inputs, state.coresPerNode));
    if (step.kind === "done") return records.filter((r) => state.nodeIds.includes(r.NodeId));
    if (planned.length > 0 && step.kind !== "wait") cx.progress("the pool changed since the stack's state was written (a node failed or was removed outside Pulumi): repairing it beyond the planned calls");
    if (step.kind === "remove") await removeNodes(cx, state, step.nodes, step.why);
    if (step.kind === "add") await addNodes(cx, state, step.count);
    if (step.kind === "wait") await waitForPool(cx, state);
  }
  throw new ClusterformError({
    code: "Internal",
    platformCode: "NOT_CONVERGED",
    operation: `sizing the pool of nodearray ${q(inputs.nodearray)} in cluster ${q(inputs.clusterName)}`,
    platformMessage: `the pool did not settle after ${MAX_ROUNDS} rounds; nodes were changed outside Pulumi meanwhile? run \`pulumi refresh\` and \`pulumi up\` again`,
  });
}

async function removeNodes(cx: ConvergeContext, state: PoolState, nodes: PoolNode[], why: string): Promise<void> {
  const { client, inputs, deadline } = cx;
  const names = nodes.map((n) => n.name);
  cx.progress(`removing ${why === "lost" ? "failed" : "surplus"} node(s) ${names.join(", ")}`);
  const result = await client.manageNodes(inputs.clusterName, "remove", { names }, { deadline });
  state.lastOperationId = result.value.operationId;
  const refused = result.value.nodes.filter((n) => n.status === "Error");
  if (refused.length > 0) {
    throw new ClusterformError({
      code: "FailedPrecondition",
      platformCode: "NODE_ERROR",
      operation: `${NODE_POOL_CALLS.RemoveNodes} ${names.join(", ")} of cluster ${q(inputs.clusterName)}`,
      platformMessage: refused.map((n) => `${n.name}: ${n.error ?? "refused"}`).join("; "),
    });
  }
  await waitForNodesGone(client, inputs.clusterName, nodes.map((n) => n.id), deadline, cx.progress);
  const gone = new Set(nodes.map((n) => n.id));
  state.nodeIds = state.nodeIds.filter((id) => !gone.has(id));
}

function creationSet(inputs: NodePoolInputs, count: number): NodeCreationSet {
  const { nodearray, machineType, nameFormat, nameOffset, nodeAttributes, placementGroupId } = inputs;
  return { count, nodearray, definition: machineType ? { machineType } : undefined, nameFormat, nameOffset, nodeAttributes, placementGroupId };
}

/** True when a create was refused because its request id was used before (CycleCloud: 409). */
function isConflict(err: unknown): boolean {
  return err instanceof ClusterformError && err.platformCode === "HTTP 409";
}

/**
 * Adds `count` nodes under the next request id. A 409 there means the id was used: by an
 * interrupted run of this very change (its nodes exist and are not the pool's yet: adopt them) or
 * by an earlier life of the pool (nothing of it is left: try the next id).
 */
async function addNodes(cx: ConvergeContext, state: PoolState, count: number): Promise<void> {
  const { client, inputs, deadline } = cx;
  for (let probe = 0; probe < MAX_REQUEST_PROBES; probe++) {
    const seq = state.requestSeq + 1;
    const requestId = requestIdOf(cx.requestBase, seq);
    let created: Awaited<ReturnType<CycleCloudClient["createNodes"]>>;
    try {
      cx.progress(`adding ${count} node(s) to nodearray ${q(inputs.nodearray)} (request ${requestId})`);
      created = await client.createNodes(inputs.clusterName, { requestId, sets: [creationSet(inputs, count)] }, { deadline });
    } catch (err) {
      if (!isConflict(err)) throw err;
      const adopted = await adoptRequest(cx, state, requestId, err as ClusterformError);
      state.requestSeq = seq;
      if (adopted) return;
      continue;
    }
    state.requestSeq = seq;
    const operationId = created.value.operationId;
    state.lastOperationId = operationId;
    const added = created.value.sets[0]?.added ?? 0;
    const listed = (await client.listNodes(inputs.clusterName, { operation: operationId }, { deadline })).nodes;
    state.nodeIds.push(...listed.map((n) => n.NodeId).filter((id) => !state.nodeIds.includes(id)));
    if (added < count) throw await quotaError(cx, count, added, created.value.sets[0]?.message);
    const what = `the ${added} node(s) of ${NODE_POOL_CALLS.CreateNodes} operation ${q(operationId)} in cluster ${q(inputs.clusterName)}`;
    await waitForNodesReady(nodesOf(client, inputs.clusterName, { operation: operationId }, deadline), what, added, deadline, cx.progress);
    return;
  }
  throw new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "REQUEST_IDS_EXHAUSTED",
    operation: `${NODE_POOL_CALLS.CreateNodes} nodearray ${q(inputs.nodearray)} of cluster ${q(inputs.clusterName)}`,
    platformMessage: `CycleCloud refused ${MAX_REQUEST_PROBES} request ids of this pool as used before; nothing was added`,
  });
}

/** Adopts the nodes a repeated request added; false when none of them is left to adopt. */
async function adoptRequest(cx: ConvergeContext, state: PoolState, requestId: string, conflict: ClusterformError): Promise<boolean> {
  const { client, inputs, deadline } = cx;
  let nodes: NodeRecord[];
  try {
    nodes = (await client.listNodes(inputs.clusterName, { requestId }, { deadline })).nodes;
  } catch (err) {
    // No operation has that request id: the 409 was about the request itself (invalid input).
    if (err instanceof ClusterformError && err.code === "NotFound") throw conflict;
    throw err;
  }
  const fresh = nodes.filter((n) => !state.nodeIds.includes(n.NodeId));
  if (fresh.length === 0) return false;
  cx.confirmAdoption?.(`${NODE_POOL_CALLS.CreateNodes} request ${q(requestId)} of nodearray ${q(inputs.nodearray)} in cluster ${q(inputs.clusterName)}`, { identity: cx.identity, id: cx.identity });
  cx.progress(`request ${requestId} was sent by an interrupted run; adopting its node(s) ${fresh.map((n) => n.Name).join(", ")}`);
  state.nodeIds.push(...fresh.map((n) => n.NodeId));
  state.lastOperationId = requestId;
  const what = `the node(s) of request ${q(requestId)} in cluster ${q(inputs.clusterName)}`;
  await waitForNodesReady(nodesOf(client, inputs.clusterName, { requestId }, deadline), what, fresh.length, deadline, cx.progress);
  return true;
}

async function waitForPool(cx: ConvergeContext, state: PoolState): Promise<void> {
  const { client, inputs, deadline } = cx;
  const ids = new Set(state.nodeIds);
  const list = async () => (await client.listNodes(inputs.clusterName, {}, { deadline })).nodes.filter((n) => ids.has(n.NodeId));
  await waitForNodesReady(list, `the pool's ${ids.size} node(s) in cluster ${q(inputs.clusterName)}`, ids.size, deadline, cx.progress);
}

/** The bucket a pool's nodes come from: the machine type asked for, else the nodearray's first. */
export function bucketOf(buckets: readonly BucketStatus[], machineType: string | undefined): BucketStatus | undefined {
  return machineType === undefined ? buckets[0] : buckets.find((b) => b.definition.machineType === machineType);
}

async function quotaError(cx: ConvergeContext, asked: number, added: number, message: string | undefined): Promise<ClusterformError> {
  const { client, inputs, deadline } = cx;
  const status = await client.getClusterStatus(inputs.clusterName, false, { deadline }).catch(() => undefined);
  const bucket = bucketOf(status?.nodearrays.find((n) => n.name === inputs.nodearray)?.buckets ?? [], inputs.machineType);
  const availability = bucket
    ? `; bucket ${bucket.definition.machineType} of nodearray ${q(inputs.nodearray)} has ${bucket.availableCount} node(s) available now`
    : "";
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "QUOTA",
    operation: `${NODE_POOL_CALLS.CreateNodes} nodearray ${q(inputs.nodearray)} of cluster ${q(inputs.clusterName)}`,
    platformMessage: `CycleCloud added ${added} of ${asked} node(s): ${message ?? "it gave no reason"}${availability}`,
  });
}
