import type { VclusterClient } from "../../../clients/vcluster/client";
import type { SnapshotState } from "../../../clients/vcluster/types";
import type { Deadline } from "../../../core/deadline";
import { ALREADY_EXISTS } from "../../../core/call-policy";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { waitFor } from "../../../core/wait";
import { carryOut } from "../../../core/plan/operation";
import { type CreateContext, type OperationContext, PartialStateError, type ResourceOperations } from "../../../core/contract";
import { deadlineFor, readDeadline } from "../../fields";
import { isNotFound, isOwnedBy, platformLabels, vclusterClient } from "../common";
import { errorPhase, waitForVCluster } from "../wait";
import { SNAPSHOT_TIMEOUTS, type SnapshotInputs } from "./schema";

type Props = Record<string, unknown>;
type Inputs = SnapshotInputs & Props;

/** The outputs create and read record of a snapshot. */
export function outputsOf(s: SnapshotState): Props {
  return { snapshotId: s.id, status: s.status, vclusterId: s.vclusterId, sizeBytes: s.sizeBytes, storageUri: s.storageUri, expireTime: s.expireTime };
}

async function findByName(client: VclusterClient, inputs: Inputs, deadline: Deadline): Promise<SnapshotState | undefined> {
  try {
    return await client.getSnapshot({ name: inputs.name!, namespace: inputs.namespace }, { deadline });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function key(inputs: Inputs): string {
  return `${inputs.namespace}/${inputs.name}`;
}

/** SnapshotVCluster needs a RUNNING vcluster: wait out a change under way, fail at once when suspended. */
async function waitForSnapshottable(ctx: CreateContext, inputs: Inputs, deadline: Deadline): Promise<void> {
  const ref = { name: inputs.vclusterName, namespace: inputs.namespace };
  await waitForVCluster({
    client: (await vclusterClient(ctx.config)),
    ref,
    deadline,
    target: "RUNNING (to take a snapshot)",
    isDone: (s) => s?.phase === "RUNNING",
    failure: (s) =>
      s === undefined
        ? `vclusterName names vcluster ${JSON.stringify(`${ref.namespace}/${ref.name}`)}, which does not exist`
        : s.phase === "SUSPENDED"
          ? `vcluster ${JSON.stringify(`${ref.namespace}/${ref.name}`)} is SUSPENDED; a snapshot needs it RUNNING (set \`suspended: false\` on it first)`
          : errorPhase(s),
    progress: ctx.report.progress,
  });
}

/** The snapshot of this resource's name, failing when someone else's snapshot holds it. */
async function findOwn(client: VclusterClient, inputs: Inputs, operation: string, deadline: Deadline): Promise<SnapshotState | undefined> {
  const existing = await findByName(client, inputs, deadline);
  if (existing && !isOwnedBy(existing.labels, inputs.owner)) {
    throw new ClusterformError({
      code: "AlreadyExists",
      platformCode: "ALREADY_EXISTS",
      operation,
      platformMessage: "a snapshot of that name already exists in that namespace and this stack did not create it; choose another name or leave `name` unset",
    });
  }
  return existing;
}

/**
 * Takes the snapshot, or adopts the one an interrupted run of this resource took. SnapshotVCluster
 * is not retried by the client: the snapshot's name is looked up before every send, and a
 * snapshot of that name without this resource's label is refused even after a lost answer.
 */
async function takeSnapshot(ctx: CreateContext, inputs: Inputs, deadline: Deadline): Promise<SnapshotState> {
  const client = await vclusterClient(ctx.config);
  const operation = `SnapshotVCluster snapshot ${JSON.stringify(key(inputs))} of vcluster ${JSON.stringify(inputs.vclusterName)}`;
  const request = {
    name: inputs.vclusterName,
    namespace: inputs.namespace,
    snapshotName: inputs.name,
    description: inputs.description ?? "",
    retentionHours: inputs.retentionHours ?? 0,
    labels: platformLabels({ labels: inputs.labels, owner: inputs.owner }),
    includeWorkloads: inputs.includeWorkloads ?? false,
  };
  const { value } = await createOrAdopt(ctx, {
    operation,
    deadline,
    find: () => findOwn(client, inputs, operation, deadline),
    send: async () => {
      await waitForSnapshottable(ctx, inputs, deadline);
      return (await client.snapshotVCluster(request, { deadline })).snapshot;
    },
    identify: (found) => ({ identity: key(inputs), id: found.id }),
    exists: ALREADY_EXISTS,
    target: "the snapshot",
  });
  return value;
}

/**
 * Waits until snapshot `id` is READY. A FAILED snapshot, or one gone since (expired, deleted out of
 * band), fails with what to do: neither becomes READY by waiting.
 */
async function waitForReady(ctx: OperationContext, id: string, inputs: Inputs, deadline: Deadline): Promise<SnapshotState> {
  const client = await vclusterClient(ctx.config);
  const what = `snapshot ${JSON.stringify(key(inputs))} (${id})`;
  const { value } = await waitFor({
    poll: async () => {
      try {
        return await client.getSnapshot({ id }, { deadline });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        return undefined;
      }
    },
    isDone: (s) => s?.status === "READY",
    failure: (s) =>
      s === undefined
        ? `${what} no longer exists; run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` takes a new one`
        : s.status === "FAILED"
          ? `${what} FAILED; replace it (\`pulumi up --replace <its URN>\`) to take a new one`
          : undefined,
    describe: (s) => `status ${s?.status ?? "gone"}`,
    deadline,
    what: `${what} to be READY`,
    progress: ctx.report.progress,
  });
  return value as SnapshotState;
}

/** vcluster snapshots: create waits for READY, any change replaces, an expired snapshot reads as gone. */
export const snapshotOperations: ResourceOperations<SnapshotInputs> = {
  async create(ctx, inputs) {
    const deadline = deadlineFor(inputs, "create", SNAPSHOT_TIMEOUTS);
    const first = await takeSnapshot(ctx, inputs, deadline);
    try {
      const ready = await waitForReady(ctx, first.id, inputs, deadline);
      return { id: ready.id, outs: outputsOf(ready) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new PartialStateError(`${message}; the snapshot is recorded in the stack: run \`pulumi up\` again, or replace it`, first.id, { ...inputs, ...outputsOf(first) }, [message]);
    }
  },

  async read(ctx, id, props) {
    try {
      return outputsOf(await (await vclusterClient(ctx.config)).getSnapshot({ id }, { deadline: readDeadline(props, SNAPSHOT_TIMEOUTS) }));
    } catch (err) {
      // Expired snapshots are gone as far as the server is concerned.
      if (isNotFound(err)) return undefined;
      throw err;
    }
  },

  async update(ctx, id, _olds, news, plan) {
    // Every field replaces, so the planner lists no call (a call here is a programming error that
    // carryOut reports before anything is sent). The engine still calls update, with no changed
    // field, to retry a create recorded before READY (partial state): wait for READY again.
    await carryOut("vcluster:Snapshot", plan.operations, {});
    return outputsOf(await waitForReady(ctx, id, news, deadlineFor(news, "update", SNAPSHOT_TIMEOUTS)));
  },

  async delete(ctx, id, props) {
    await (await vclusterClient(ctx.config)).deleteSnapshot(id, { deadline: deadlineFor(props, "delete", SNAPSHOT_TIMEOUTS), force: true }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  },
};
