import type { Deadline } from "../../../core/deadline";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { carryOut } from "../../../core/plan/operation";
import { type OperationContext, type ResourceOperations, withPartialState } from "../../../core/contract";
import { CMASSH_EXISTS, cmasshClient, findCluster, toPlatformLabels, waitForRunning } from "../common";
import { deadlineFor, readDeadline } from "../../fields";
import { NODE_POOL_CALLS, NODE_POOL_TIMEOUTS, type NODE_POOL_UPDATE_CALLS, type NodePoolInputs } from "./schema";

type Props = Record<string, unknown>;

/** A pool's id: cma-ssh names pools within their cluster. */
export function poolId(clusterName: string, name: string): string {
  return `${clusterName}/${name}`;
}

function parseId(id: string, props: Props): { clusterName: string; name: string } {
  const [clusterName, name] = id.includes("/") ? id.split("/", 2) : [String(props.clusterName), id];
  return { clusterName, name };
}

function foreignPool(clusterName: string, name: string): ClusterformError {
  return new ClusterformError({
    code: "AlreadyExists",
    platformCode: "EXISTS",
    operation: `${NODE_POOL_CALLS.AddNodePool} pool ${JSON.stringify(name)} of cluster ${JSON.stringify(clusterName)}`,
    platformMessage:
      "a pool of that name already exists in the cluster and this stack did not create it (cma-ssh does not report " +
      "labels, so ownership is known only for names Clusterform derived itself); choose another name or leave `name` unset",
  });
}

/** Whose wait it is, for messages: `pool "general": ScaleNodePool to 5` (the pool waits for its cluster). */
function poolStep(name: string, call?: string): string {
  return `pool ${JSON.stringify(name)}${call ? `: ${call}` : ""}`;
}

/** Waits for the cluster to settle; a failure keeps the pool in the stack (it exists). */
async function settle(ctx: OperationContext, clusterName: string, id: string, outs: Props, deadline: Deadline, step: string, sent = true): Promise<Props> {
  try {
    const { cluster } = await waitForRunning(await cmasshClient(ctx.config), clusterName, deadline, { progress: ctx.report.progress, by: step, sent });
    return { clusterStatus: cluster.status };
  } catch (err) {
    throw withPartialState(err, id, outs);
  }
}

function addSpec(inputs: NodePoolInputs, name: string) {
  return [{ name, instanceType: inputs.instanceType, count: inputs.count, labels: toPlatformLabels(inputs.labels, inputs.owner) }];
}

/**
 * Scales the pool to the new count. A pool deleted outside Pulumi answers NOT_FOUND: it is added
 * again at the desired size, with a warning, since cma-ssh gives no other way to notice it.
 */
async function scaleOrReAdd(ctx: OperationContext, news: NodePoolInputs, clusterName: string, name: string, deadline: Deadline): Promise<void> {
  const client = await cmasshClient(ctx.config);
  try {
    await client.scaleNodePool(clusterName, [{ name, count: news.count }], { deadline });
    return;
  } catch (err) {
    if (!(err instanceof ClusterformError && err.code === "NotFound")) throw err;
    // The whole cluster being gone is not something a pool can repair: say so plainly.
    if (!(await findCluster(client, clusterName, deadline))) throw err;
  }
  await ctx.report.warn(
    `pool ${JSON.stringify(name)} of cluster ${JSON.stringify(clusterName)} no longer exists (${NODE_POOL_CALLS.ScaleNodePool} answered NOT_FOUND: ` +
      `it was deleted outside Pulumi); adding it again with ${news.count} machine(s)`,
  );
  await client.addNodePool(clusterName, addSpec(news, name), { deadline });
}

/**
 * cma-ssh node pools. The API has no call that reads a pool, so existence is learned from the
 * answers of AddNodePool (duplicate) and DeleteNodePool/ScaleNodePool (NOT_FOUND), and refresh can
 * only tell that the pool's cluster is gone.
 */
export const nodePoolOperations: ResourceOperations<NodePoolInputs> = {
  async create(ctx, inputs) {
    const client = await cmasshClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", NODE_POOL_TIMEOUTS);
    const { clusterName, count } = inputs;
    const name = inputs.name!;
    const id = poolId(clusterName, name);
    // cma-ssh has no call that reads a pool: AddNodePool's "already exists" is the only sign of
    // one, whether an earlier attempt whose answer was lost added it or an interrupted run did.
    const { taken } = await createOrAdopt(ctx, {
      operation: `${NODE_POOL_CALLS.AddNodePool} pool ${JSON.stringify(name)} of cluster ${JSON.stringify(clusterName)}`,
      deadline,
      existing: id,
      send: async () => {
        await client.addNodePool(clusterName, addSpec(inputs, name), { deadline });
        return id;
      },
      identify: () => ({ identity: id, id }),
      foreign: () => (inputs.autoNamed ? undefined : foreignPool(clusterName, name)),
      exists: CMASSH_EXISTS,
    });
    // Left behind by an interrupted run of this very resource: adopted at the desired size.
    if (taken === "adopted") await client.scaleNodePool(clusterName, [{ name, count }], { deadline });
    return { id, outs: await settle(ctx, clusterName, id, { ...inputs, clusterStatus: "UNKNOWN" }, deadline, poolStep(name, NODE_POOL_CALLS.AddNodePool)) };
  },

  async read(ctx, id, props) {
    const { clusterName } = parseId(id, props);
    const cluster = await findCluster((await cmasshClient(ctx.config)), clusterName, readDeadline(props, NODE_POOL_TIMEOUTS));
    return cluster ? { clusterStatus: cluster.status } : undefined;
  },

  async update(ctx, id, _olds, news, plan) {
    const deadline = deadlineFor(news, "update", NODE_POOL_TIMEOUTS);
    const { clusterName, name } = parseId(id, news);
    const scale = plan.operations.find((o) => o.call === NODE_POOL_CALLS.ScaleNodePool);
    await carryOut<typeof NODE_POOL_UPDATE_CALLS>("cmassh:NodePool", plan.operations, {
      [NODE_POOL_CALLS.ScaleNodePool]: (o) => scaleOrReAdd(ctx, { ...news, count: Number(o.args.count) }, clusterName, name, deadline),
    });
    return settle(ctx, clusterName, id, news, deadline, poolStep(name, scale ? `${NODE_POOL_CALLS.ScaleNodePool} to ${scale.args.count}` : undefined), scale !== undefined);
  },

  async delete(ctx, id, props) {
    const client = await cmasshClient(ctx.config);
    const deadline = deadlineFor(props, "delete", NODE_POOL_TIMEOUTS);
    const { clusterName, name } = parseId(id, props);
    try {
      await client.deleteNodePool(clusterName, [name], { deadline });
    } catch (err) {
      // The pool or its whole cluster is already gone: nothing left to delete.
      if (err instanceof ClusterformError && err.code === "NotFound") return;
      throw err;
    }
    if (await findCluster(client, clusterName, deadline)) {
      await waitForRunning(client, clusterName, deadline, { progress: ctx.report.progress, by: poolStep(name, NODE_POOL_CALLS.DeleteNodePool) });
    }
  },
};
