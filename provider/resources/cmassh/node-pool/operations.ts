import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { type ResourceOperations, withPartialState } from "../../kit";
import { cmasshClient, findCluster, isAlreadyExists, toPlatformLabels, waitForRunning } from "../common";
import { deadlineFor, readDeadline } from "../shared-schema";
import { NODE_POOL_TIMEOUTS, type NodePoolInputs } from "./schema";

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
    operation: `AddNodePool pool ${JSON.stringify(name)} of cluster ${JSON.stringify(clusterName)}`,
    platformMessage:
      "a pool of that name already exists in the cluster and this stack did not create it (cma-ssh does not report " +
      "labels, so ownership is known only for names Clusterform derived itself); choose another name or leave `name` unset",
  });
}

/** Waits for the cluster to settle; a failure keeps the pool in the stack (it exists). */
async function settle(clusterName: string, id: string, outs: Props, config: Parameters<typeof cmasshClient>[0], deadline: Deadline): Promise<Props> {
  try {
    const { cluster } = await waitForRunning(cmasshClient(config), clusterName, deadline);
    return { clusterStatus: cluster.status };
  } catch (err) {
    throw withPartialState(err, id, outs);
  }
}

/**
 * cma-ssh node pools. The API has no call that reads a pool, so existence is learned from the
 * answers of AddNodePool (duplicate) and DeleteNodePool/ScaleNodePool (NOT_FOUND), and refresh can
 * only tell that the pool's cluster is gone.
 */
export const nodePoolOperations: ResourceOperations<NodePoolInputs> = {
  async create(ctx, inputs) {
    const client = cmasshClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", NODE_POOL_TIMEOUTS);
    const { clusterName, count } = inputs;
    const name = inputs.name!;
    const id = poolId(clusterName, name);
    try {
      await client.addNodePool(
        clusterName,
        [{ name, instanceType: inputs.instanceType, count, labels: toPlatformLabels(inputs.labels, inputs.owner) }],
        { deadline },
      );
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      if (!inputs.autoNamed) throw foreignPool(clusterName, name);
      // Left behind by an interrupted run of this very resource: adopt it at the desired size.
      ctx.confirmAdoption(`AddNodePool pool ${JSON.stringify(name)} of cluster ${JSON.stringify(clusterName)}`, id);
      await client.scaleNodePool(clusterName, [{ name, count }], { deadline });
    }
    return { id, outs: await settle(clusterName, id, { ...inputs, clusterStatus: "UNKNOWN" }, ctx.config, deadline) };
  },

  async read(ctx, id, props) {
    const { clusterName } = parseId(id, props);
    const cluster = await findCluster(cmasshClient(ctx.config), clusterName, readDeadline(props, NODE_POOL_TIMEOUTS));
    return cluster ? { clusterStatus: cluster.status } : undefined;
  },

  async update(ctx, id, _olds, news, plan) {
    const client = cmasshClient(ctx.config);
    const deadline = deadlineFor(news, "update", NODE_POOL_TIMEOUTS);
    const { clusterName, name } = parseId(id, news);
    if (plan.updates.some((u) => u.field === "count")) {
      await client.scaleNodePool(clusterName, [{ name, count: news.count }], { deadline });
    }
    return settle(clusterName, id, news, ctx.config, deadline);
  },

  async delete(ctx, id, props) {
    const client = cmasshClient(ctx.config);
    const deadline = deadlineFor(props, "delete", NODE_POOL_TIMEOUTS);
    const { clusterName, name } = parseId(id, props);
    try {
      await client.deleteNodePool(clusterName, [name], { deadline });
    } catch (err) {
      // The pool or its whole cluster is already gone: nothing left to delete.
      if (err instanceof ClusterformError && err.code === "NotFound") return;
      throw err;
    }
    if (await findCluster(client, clusterName, deadline)) await waitForRunning(client, clusterName, deadline);
  },
};
