import type { VclusterClient } from "../../../clients/vcluster/client";
import type { VClusterState } from "../../../clients/vcluster/types";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import type { CreateContext } from "../../../core/contract";
import { findVCluster, isNotFound, isOwnedBy, keyOf, platformLabels, vclusterClient } from "../common";
import type { VClusterInputs } from "./schema";
import { refOf, requestIdOf, specOf } from "./state";

type Inputs = VClusterInputs & Record<string, unknown>;

function foreignVCluster(inputs: Inputs): ClusterformError {
  return new ClusterformError({
    code: "AlreadyExists",
    platformCode: "ALREADY_EXISTS",
    operation: `CreateVCluster vcluster ${JSON.stringify(keyOf(refOf(inputs)))}`,
    platformMessage:
      "a vcluster of that name already exists in that namespace and this stack did not create it (it lacks this resource's " +
      "clusterform.dev/owner label); choose another name or namespace, delete that vcluster, or leave `name` unset",
  });
}

/**
 * Adopts what an interrupted run created: the reference server ignores request ids, so the vcluster
 * is found by name and recognized by the ownership label, then the core confirms it cannot be the
 * vcluster a replacement is about to delete.
 */
function adopt(ctx: CreateContext, inputs: Inputs, found: VClusterState): VClusterState {
  if (!isOwnedBy(found.labels, inputs.owner)) throw foreignVCluster(inputs);
  const key = keyOf(refOf(inputs));
  ctx.confirmAdoption(`CreateVCluster vcluster ${JSON.stringify(key)}`, { identity: key, id: found.id });
  return found;
}

/** CreateVCluster with the deterministic request id; a reused id answered for a vcluster since deleted is sent again fresh. */
async function sendCreate(client: VclusterClient, inputs: Inputs, deadline: Deadline): Promise<VClusterState> {
  const request = { ...refOf(inputs), spec: specOf(inputs), labels: platformLabels(inputs) };
  const requestId = requestIdOf(inputs);
  const { vcluster } = await client.createVCluster({ ...request, requestId }, { deadline });
  const live = await findVCluster(client, refOf(inputs), deadline);
  if (live && live.id === vcluster.id) return live;
  // A server that honours ids answers a repeat with its first answer, even when that vcluster has
  // since been deleted (a replacement under the same name): that answer is stale.
  return (await client.createVCluster({ ...request, requestId: `${requestId}-${Date.now().toString(36)}` }, { deadline })).vcluster;
}

/** RestoreVCluster into a new vcluster, then this resource's labels and spec fields on top of the snapshot's. */
async function sendRestore(client: VclusterClient, inputs: Inputs, deadline: Deadline): Promise<VClusterState> {
  const snapshotId = inputs.restoreFrom!;
  const snapshot = await client.getSnapshot({ id: snapshotId }, { deadline }).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw new ClusterformError({
      code: "NotFound",
      platformCode: "NOT_FOUND",
      operation: `RestoreVCluster vcluster ${JSON.stringify(keyOf(refOf(inputs)))}`,
      platformMessage: `restoreFrom names snapshot ${JSON.stringify(snapshotId)}, which does not exist (or has expired); give the id of a READY snapshot`,
    });
  });
  const ref = refOf(inputs);
  const { vcluster } = await client.restoreVCluster(
    { name: snapshot.vclusterName, namespace: snapshot.namespace, snapshotId, createNew: true, newName: ref.name, newNamespace: ref.namespace },
    { deadline },
  );
  // The restored vcluster carries the snapshot's labels: mark it ours at once, and set the spec
  // fields this resource names, so what the stack records is what runs.
  const spec = specOf(inputs);
  const { replicas: _r, resources: _res, ...rest } = spec;
  const mask = ["labels", ...Object.keys(rest).map((k) => `spec.${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`)];
  await client.updateVCluster({ ...ref, spec: rest, labels: platformLabels(inputs), updateMask: mask }, { deadline });
  return vcluster;
}

/**
 * Creates the vcluster (or restores it from `restoreFrom`) unless an interrupted run of this
 * resource already did, in which case it is adopted.
 * @returns the vcluster as first seen; the caller waits for it.
 */
export async function createOrAdopt(ctx: CreateContext, inputs: Inputs, deadline: Deadline): Promise<VClusterState> {
  const client = await vclusterClient(ctx.config);
  const existing = await findVCluster(client, refOf(inputs), deadline);
  if (existing) return adopt(ctx, inputs, existing);
  try {
    return inputs.restoreFrom ? await sendRestore(client, inputs, deadline) : await sendCreate(client, inputs, deadline);
  } catch (err) {
    // A create that raced another run of this resource (or whose reply was lost) is found again.
    if (!(err instanceof ClusterformError && err.code === "AlreadyExists")) throw err;
    const found = await findVCluster(client, refOf(inputs), deadline);
    if (!found) throw err;
    return adopt(ctx, inputs, found);
  }
}
