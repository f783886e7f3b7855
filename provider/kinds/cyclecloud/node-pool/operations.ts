import type { CycleCloudClient } from "../../../clients/cyclecloud/client";
import type { ClusterStatus, NodeRecord } from "../../../clients/cyclecloud/types";
import { platformOwnsCapacity } from "../../../core/capacity";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import type { PlannedOperation } from "../../../core/plan/operation";
import { type CreateContext, type OperationContext, type ResourceOperations, withPartialState } from "../../../core/contract";
import { deadlineFor, readDeadline, seedValues } from "../../fields";
import { cycleCloudClient, isClusterNotFound } from "../common";
import { bucketOf, convergePool, type PoolState } from "./converge";
import { poolIdentity, poolNodes, requestIdBase, targetNodes } from "./pool";
import { observedPower, powerOf, recordedPower } from "./power";
import { NODE_POOL_TIMEOUTS, type NodePoolInputs, nodePoolKind } from "./schema";
import { waitForNodesGone } from "./waits";

type Props = Record<string, unknown>;
const q = (s: string) => JSON.stringify(s);

/** The outputs of a pool from its state and the nodes' records. */
export function outputsOf(state: PoolState, records: readonly NodeRecord[]): Props {
  const nodes = poolNodes(records, state.nodeIds);
  return {
    nodeIds: nodes.map((n) => n.id),
    nodeNames: nodes.map((n) => n.name),
    readyCount: nodes.filter((n) => n.role === "ready").length,
    lastOperationId: state.lastOperationId,
    requestSeq: state.requestSeq,
    coresPerNode: state.coresPerNode,
  };
}

function stateOf(props: Props): PoolState {
  return {
    nodeIds: Array.isArray(props.nodeIds) ? props.nodeIds.map(String) : [],
    requestSeq: typeof props.requestSeq === "number" ? props.requestSeq : 0,
    lastOperationId: typeof props.lastOperationId === "string" ? props.lastOperationId : "",
    coresPerNode: typeof props.coresPerNode === "number" ? props.coresPerNode : 1,
  };
}

/** The vCPUs of the pool's bucket; errors name what the cluster has instead. */
function coresPerNodeOf(status: ClusterStatus, inputs: NodePoolInputs): number {
  const operation = `GetClusterStatus cluster ${q(inputs.clusterName)}`;
  const nodearray = status.nodearrays.find((n) => n.name === inputs.nodearray);
  if (!nodearray) {
    throw new ClusterformError({
      code: "InvalidArgument",
      platformCode: "UNKNOWN_NODEARRAY",
      operation,
      platformMessage: `cluster ${q(inputs.clusterName)} has no nodearray ${q(inputs.nodearray)}; its nodearrays: ${status.nodearrays.map((n) => n.name).join(", ") || "none"}`,
    });
  }
  const bucket = bucketOf(nodearray.buckets, inputs.machineType);
  if (!bucket) {
    throw new ClusterformError({
      code: "InvalidArgument",
      platformCode: "UNKNOWN_MACHINE_TYPE",
      operation,
      platformMessage: `nodearray ${q(inputs.nodearray)} has no bucket of machineType ${q(String(inputs.machineType))}; its machine types: ${nodearray.buckets.map((b) => b.definition.machineType).join(", ")}`,
    });
  }
  return bucket.virtualMachine.vcpuCount;
}

/** Converges the pool; a failure records what exists (the engine keeps it and retries on the next `up`). */
async function converge(ctx: OperationContext | CreateContext, client: CycleCloudClient, inputs: NodePoolInputs, state: PoolState, deadline: Deadline, planned?: readonly PlannedOperation[]): Promise<Props> {
  const identity = poolIdentity(inputs as unknown as Props);
  const confirmAdoption = "confirmAdoption" in ctx ? ctx.confirmAdoption : undefined;
  const requestBase = requestIdBase(inputs.owner, seedValues(nodePoolKind, inputs));
  // A create sizes the pool to the program's size whoever owns it later.
  const sizeOwnedByPlatform = planned !== undefined && platformOwnsCapacity(inputs as unknown as Props);
  try {
    const cx = { client, inputs, requestBase, identity, deadline, progress: ctx.report.progress, confirmAdoption, sizeOwnedByPlatform };
    const records = await convergePool(cx, state, planned ?? [], planned === undefined);
    return outputsOf(state, records);
  } catch (err) {
    if (state.nodeIds.length === 0 && state.requestSeq === 0) throw err;
    const records = await client.listNodes(inputs.clusterName, {}, { deadline }).then((l) => l.nodes, () => []);
    // The power state the nodes show, never the one asked for unless every node reached it: a
    // park or start that failed part-way is carried on by the next `up`.
    const powerState = recordedPower(observedPower(poolNodes(records, state.nodeIds), powerOf(inputs.powerState)), inputs.powerState);
    const { powerState: _asked, ...rest } = inputs;
    throw withPartialState(err, identity, { ...rest, ...outputsOf(state, records), ...(powerState ? { powerState } : {}) });
  }
}

/**
 * CycleCloud node pools: the nodes a pool created in one nodearray, sized declaratively over an
 * API that only adds (nodes/create with deterministic request ids) and removes by selector.
 */
export const nodePoolOperations: ResourceOperations<NodePoolInputs> = {
  async create(ctx, inputs) {
    const client = await cycleCloudClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", NODE_POOL_TIMEOUTS);
    const status = await client.getClusterStatus(inputs.clusterName, false, { deadline });
    const state: PoolState = { nodeIds: [], requestSeq: 0, lastOperationId: "", coresPerNode: coresPerNodeOf(status, inputs) };
    const outs = await converge(ctx, client, inputs, state, deadline);
    return { id: poolIdentity(inputs as unknown as Props), outs };
  },

  async read(ctx, _id, props) {
    const client = await cycleCloudClient(ctx.config);
    const state = stateOf(props);
    let records: NodeRecord[];
    try {
      records = (await client.listNodes(String(props.clusterName), {}, { deadline: readDeadline(props, NODE_POOL_TIMEOUTS) })).nodes;
    } catch (err) {
      if (isClusterNotFound(err)) return undefined;
      throw err;
    }
    const nodes = poolNodes(records, state.nodeIds);
    // Every node the stack knew is gone: the pool was deleted outside Pulumi; unless CycleCloud owns
    // its size, when its autoscaler may well have scaled it to zero.
    if (state.nodeIds.length > 0 && nodes.length === 0 && !platformOwnsCapacity(props)) return undefined;
    // A pool started or parked outside Pulumi shows so, and the next `up` parks or starts it again.
    const powerState = recordedPower(observedPower(nodes, powerOf(props.powerState)), props.powerState);
    const outs = { ...outputsOf(state, records), powerState };
    // Parked nodes are the pool's (nodes/start brings them back); failed and leaving ones are not.
    const alive = nodes.filter((n) => n.role === "ready" || n.role === "starting" || n.parked !== undefined).length;
    const inputs = props as unknown as NodePoolInputs;
    if (alive === targetNodes(inputs, state.coresPerNode)) return outs;
    // Nodes failed, were preempted or removed outside Pulumi: the size in state says what is left,
    // so the next `up` adds exactly what is missing.
    return inputs.count !== undefined ? { ...outs, count: alive } : { ...outs, coreCount: alive * state.coresPerNode };
  },

  async update(ctx, _id, olds, news, plan) {
    const client = await cycleCloudClient(ctx.config);
    const deadline = deadlineFor(news, "update", NODE_POOL_TIMEOUTS);
    return converge(ctx, client, news, stateOf(olds), deadline, plan.operations);
  },

  async delete(ctx, _id, props) {
    const client = await cycleCloudClient(ctx.config);
    const deadline = deadlineFor(props, "delete", NODE_POOL_TIMEOUTS);
    const cluster = String(props.clusterName);
    let records: NodeRecord[];
    try {
      records = (await client.listNodes(cluster, {}, { deadline })).nodes;
    } catch (err) {
      if (isClusterNotFound(err)) return;
      throw err;
    }
    const nodes = poolNodes(records, stateOf(props).nodeIds);
    if (nodes.length === 0) return;
    ctx.report.progress(`removing node(s) ${nodes.map((n) => n.name).join(", ")}`);
    await client.manageNodes(cluster, "remove", { names: nodes.map((n) => n.name) }, { deadline });
    await waitForNodesGone(client, cluster, nodes.map((n) => n.id), deadline, ctx.report.progress);
  },
};
