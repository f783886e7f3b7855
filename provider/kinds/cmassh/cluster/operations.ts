import type { ClusterDetail } from "../../../clients/cmassh/types";
import type { Deadline } from "../../../core/deadline";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { carryOut } from "../../../core/plan/operation";
import { type CreateContext, PartialStateError, type ResourceOperations, withPartialState } from "../../../core/contract";
import { CMASSH_EXISTS, cmasshClient, findCluster, toPlatformLabels, waitForGone, waitForRunning } from "../common";
import { deadlineFor, readDeadline } from "../../fields";
import { CLUSTER_CALLS, CLUSTER_TIMEOUTS, type CLUSTER_UPDATE_CALLS, type ClusterInputs } from "./schema";

type Props = Record<string, unknown>;

function outputsOf(cluster: ClusterDetail): Props {
  return { status: cluster.status, statusMessage: cluster.statusMessage, kubeconfig: cluster.kubeconfig };
}

function foreignCluster(name: string): ClusterformError {
  return new ClusterformError({
    code: "AlreadyExists",
    platformCode: "EXISTS",
    operation: `${CLUSTER_CALLS.CreateCluster} cluster ${JSON.stringify(name)}`,
    platformMessage:
      "a cluster of that name already exists and this stack did not create it (cma-ssh does not report labels, " +
      "so ownership is known only for names Clusterform derived itself); choose another name, delete that cluster, " +
      "or leave `name` unset to let Clusterform derive one",
  });
}

/**
 * Creates the cluster unless this resource already did (an interrupted `up` left it behind), in
 * which case it is adopted once the core confirms it cannot be the cluster a replacement is about to
 * delete. cma-ssh keeps no labels on a cluster, so only a name this resource derived is known to be
 * its own (or a create of this call whose answer was lost).
 */
async function createCluster(ctx: CreateContext, inputs: ClusterInputs & Props, deadline: Deadline): Promise<void> {
  const client = await cmasshClient(ctx.config);
  const name = inputs.name!;
  const request = {
    name,
    k8sVersion: inputs.kubernetesVersion,
    controlPlaneNodes: {
      instanceType: inputs.controlPlane.instanceType,
      count: inputs.controlPlane.count,
      labels: toPlatformLabels(inputs.controlPlane.labels, inputs.owner),
    },
  };
  await createOrAdopt(ctx, {
    operation: `${CLUSTER_CALLS.CreateCluster} cluster ${JSON.stringify(name)}`,
    deadline,
    find: async () => ((await findCluster(client, name, deadline)) ? name : undefined),
    send: async () => {
      await client.createCluster(request, { deadline });
      return name;
    },
    identify: () => ({ identity: name, id: name }),
    foreign: () => (inputs.autoNamed ? undefined : foreignCluster(name)),
    exists: CMASSH_EXISTS,
    target: "the cluster",
  });
}

/** cma-ssh clusters: create waits for RUNNING, a version change is an upgrade, delete waits for NOT_FOUND. */
export const clusterOperations: ResourceOperations<ClusterInputs> = {
  async create(ctx, inputs) {
    const deadline = deadlineFor(inputs, "create", CLUSTER_TIMEOUTS);
    await createCluster(ctx, inputs, deadline);
    const name = inputs.name!;
    try {
      const { cluster } = await waitForRunning(await cmasshClient(ctx.config), name, deadline, { progress: ctx.report.progress });
      return { id: name, outs: outputsOf(cluster) };
    } catch (err) {
      // The cluster exists: record it (with __provider, so delete can run) rather than orphan it.
      const seen = await findCluster((await cmasshClient(ctx.config)), name, deadline).catch(() => undefined);
      const outs = { ...inputs, status: seen?.status ?? "UNKNOWN", statusMessage: seen?.statusMessage ?? "", kubeconfig: seen?.kubeconfig ?? "" };
      const message = err instanceof Error ? err.message : String(err);
      throw new PartialStateError(
        `${message}; the cluster was created and is recorded in the stack: fix the cause and run \`pulumi up\` again, or replace it with \`pulumi up --replace <urn>\``,
        name,
        outs,
        [message],
      );
    }
  },

  async read(ctx, id, props) {
    const cluster = await findCluster((await cmasshClient(ctx.config)), id, readDeadline(props, CLUSTER_TIMEOUTS));
    return cluster ? outputsOf(cluster) : undefined;
  },

  async update(ctx, id, olds, news, plan) {
    const client = await cmasshClient(ctx.config);
    const deadline = deadlineFor(news, "update", CLUSTER_TIMEOUTS);
    const upgrade = plan.operations.find((o) => o.call === CLUSTER_CALLS.UpgradeCluster);
    const upgraded = upgrade !== undefined;
    await carryOut<typeof CLUSTER_UPDATE_CALLS>("cmassh:Cluster", plan.operations, {
      async [CLUSTER_CALLS.GetUpgradeClusterInformation](o) {
        const version = String(o.args.version);
        const offered = await client.getUpgradeClusterInformation(id, { deadline });
        if (!offered.includes(version)) {
          throw new ClusterformError({
            code: "FailedPrecondition",
            platformCode: "NOT_OFFERED",
            operation: `${CLUSTER_CALLS.UpgradeCluster} cluster ${JSON.stringify(id)}`,
            platformMessage: `kubernetesVersion ${version} is not offered by the platform; offered: ${offered.join(", ") || "none"}`,
          });
        }
      },
      [CLUSTER_CALLS.UpgradeCluster]: (o) => client.upgradeCluster(id, String(o.args.to), { deadline }),
    });
    try {
      const after = upgrade ? `${CLUSTER_CALLS.UpgradeCluster} to ${JSON.stringify(upgrade.args.to)}` : undefined;
      const { cluster } = await waitForRunning(client, id, deadline, { progress: ctx.report.progress, after, sent: upgraded });
      return outputsOf(cluster);
    } catch (err) {
      const seen = await findCluster(client, id, deadline).catch(() => undefined);
      // An upgrade that ended in ERROR left the cluster on its old version (GetCluster does not
      // report versions): record that one, so that the next `up` plans the upgrade again instead
      // of finding nothing to do.
      const version = upgraded && seen?.status === "ERROR" ? { kubernetesVersion: olds.kubernetesVersion } : {};
      throw withPartialState(err, id, { ...news, ...(seen ? outputsOf(seen) : {}), ...version });
    }
  },

  async delete(ctx, id, props) {
    const client = await cmasshClient(ctx.config);
    const deadline = deadlineFor(props, "delete", CLUSTER_TIMEOUTS);
    try {
      await client.deleteCluster(id, { deadline });
    } catch (err) {
      if (err instanceof ClusterformError && err.code === "NotFound") return;
      throw err;
    }
    await waitForGone(client, id, deadline, ctx.report.progress);
  },
};
