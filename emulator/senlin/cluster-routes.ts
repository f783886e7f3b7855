import { randomUUID } from "node:crypto";
import { z } from "zod";
import { findIn, ownerOf, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, SenlinError } from "./errors";
import { activeActionsOn, BASE_DURATION_MS, queueAction } from "./lifecycle";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import { requireMicroversion } from "./microversion";
import type { ActionName, ActionPlan, ClusterRecord } from "./records";
import { renderCluster } from "./render";
import { checkSizeParams } from "./scaling";
import { boolField, intField, nameField, objectField, parseWith } from "./validation";

/** Senlin's `default_action_timeout`, seconds. */
export const DEFAULT_ACTION_TIMEOUT = 3600;

const createBody = z.strictObject({
  name: nameField,
  profile_id: z.string().min(1),
  min_size: intField(0).optional(),
  max_size: intField(-1).optional(),
  desired_capacity: intField(0).optional(),
  timeout: intField(0).optional(),
  metadata: objectField.optional(),
  config: objectField.optional(),
});

const updateBody = z.strictObject({
  name: nameField.optional(),
  profile_id: z.string().min(1).optional(),
  timeout: intField(0).optional(),
  metadata: objectField.optional(),
  config: objectField.optional(),
  profile_only: boolField.optional(),
});

/** The caller's cluster named by the `cluster_id` path parameter (name, short id or UUID). */
export function clusterOf(req: SenlinRequest): ClusterRecord {
  return findIn(req.env.store.clusters, req.token.projectId, req.params.cluster_id, "cluster");
}

/** The profile a request names; a missing one is the caller's mistake (400), as in the real server. */
function specifiedProfile(req: SenlinRequest, identity: string) {
  try {
    return findIn(req.env.store.profiles, req.token.projectId, identity, "profile");
  } catch (error) {
    if (error instanceof SenlinError && error.status === 404) throw badRequest(`The specified profile '${identity}' could not be found.`);
    throw error;
  }
}

/** Refuses an action while another one works on the cluster (the engine's ActionConflict). */
export function assertNoConflict(req: SenlinRequest, cluster: ClusterRecord, action: ActionName): void {
  const active = activeActionsOn(req.env.store, cluster);
  if (active.length === 0) return;
  throw new SenlinError(
    "ActionConflict",
    `The ${action} action for target ${cluster.id} conflicts with the following action(s): ${active.map((a) => a.id).join(",")}`,
  );
}

/** Queues a cluster action (its failure decided now if a fault asks) and answers 202 with its id. */
export function startClusterAction(
  req: SenlinRequest,
  cluster: ClusterRecord,
  action: ActionName,
  namePrefix: string,
  inputs: Record<string, unknown>,
  plan: ActionPlan = {},
  data?: Record<string, unknown>,
): SenlinReply {
  const failure = req.call.takeOperationFailure() ?? plan.failure;
  const queued = queueAction(req.env, req.nowMs, {
    data,
    owner: ownerOf(req),
    action,
    target: cluster.id,
    clusterId: cluster.id,
    namePrefix,
    inputs,
    plan: failure === undefined ? plan : { ...plan, failure },
    timeout: cluster.timeout,
  });
  return { status: 202, body: { action: queued.id }, actionId: queued.id };
}

const CLUSTER_LIST: ListSpec<ClusterRecord> = {
  filters: { name: (c) => c.name, status: (c) => c.status },
  sortKeys: {
    name: (c) => c.name,
    status: (c) => c.status,
    init_at: (c) => c.initAtMs,
    created_at: (c) => c.createdAtMs,
    updated_at: (c) => c.updatedAtMs,
  },
};

function listClusters(req: SenlinRequest): SenlinReply {
  const project = isGlobalListing(req) ? undefined : req.token.projectId;
  const clusters = applyListQuery(req, req.env.store.clusters.list(project), CLUSTER_LIST);
  return { status: 200, body: { clusters: clusters.map((c) => renderCluster(req.env.store, c)) } };
}

function createCluster(req: SenlinRequest): SenlinReply {
  const body = parseWith(createBody, wrappedBody(req, "cluster"));
  const profile = specifiedProfile(req, body.profile_id);
  const desired = body.desired_capacity ?? body.min_size ?? 0;
  const sizeError = checkSizeParams(undefined, desired, body.min_size, body.max_size);
  if (sizeError) throw badRequest(sizeError);
  const cluster: ClusterRecord = {
    ...ownerOf(req),
    id: randomUUID(),
    name: body.name,
    profileId: profile.id,
    minSize: body.min_size ?? 0,
    maxSize: body.max_size ?? -1,
    desiredCapacity: desired,
    timeout: body.timeout || DEFAULT_ACTION_TIMEOUT,
    status: "INIT",
    statusReason: "Initializing",
    metadata: body.metadata ?? {},
    config: body.config ?? {},
    data: {},
    nextIndex: 1,
    initAtMs: req.nowMs,
    createdAtMs: null,
    updatedAtMs: null,
  };
  req.env.store.clusters.insert(cluster);
  const reply = startClusterAction(req, cluster, "CLUSTER_CREATE", "cluster_create", {});
  return { ...reply, body: { cluster: renderCluster(req.env.store, cluster) } };
}

function updateCluster(req: SenlinRequest): SenlinReply {
  const cluster = clusterOf(req);
  const body = parseWith(updateBody, wrappedBody(req, "cluster"));
  if (body.profile_only !== undefined) requireMicroversion(req.version, "profileOnly");
  if (cluster.status === "ERROR") throw new SenlinError("FeatureNotSupported", "Updating a cluster in error state is not supported.");
  const changes: NonNullable<ActionPlan["changes"]> = {};
  if (body.profile_id !== undefined) {
    const current = req.env.store.profiles.get(cluster.profileId);
    const next = specifiedProfile(req, body.profile_id);
    if (current && next.type !== current.type) throw badRequest("Cannot update a cluster to a different profile type, operation aborted.");
    if (next.id !== cluster.profileId) changes.profileId = next.id;
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (body.metadata !== undefined && !same(body.metadata, cluster.metadata)) changes.metadata = body.metadata;
  if (body.timeout !== undefined && body.timeout !== cluster.timeout) changes.timeout = body.timeout;
  if (body.name !== undefined && body.name !== cluster.name) changes.name = body.name;
  if (body.config !== undefined && !same(body.config, cluster.config)) changes.config = body.config;
  if (Object.keys(changes).length === 0 && body.profile_only === undefined) throw badRequest("No property needs an update.");
  assertNoConflict(req, cluster, "CLUSTER_UPDATE");
  // The action's inputs as the engine names them: the new profile is `new_profile_id`.
  const { profileId, ...named } = changes;
  const inputs = { ...named, ...(profileId ? { new_profile_id: profileId } : {}), ...(body.profile_only !== undefined ? { profile_only: body.profile_only } : {}) };
  // A new profile rolls the nodes at the start; what one node update takes is fixed now, at this time scale.
  const rolling = changes.profileId ? { nodeUpdateMs: Math.round(BASE_DURATION_MS.NODE_UPDATE * req.env.timeScale), timeScale: req.env.timeScale } : {};
  const reply = startClusterAction(req, cluster, "CLUSTER_UPDATE", "cluster_update", inputs, { changes, ...rolling });
  return { ...reply, body: { cluster: renderCluster(req.env.store, cluster) } };
}

/** Statuses in which a delete is refused unless forced. */
const DELETE_BLOCKING = new Set(["CREATING", "UPDATING", "DELETING", "RECOVERING"]);

function deleteCluster(req: SenlinRequest): SenlinReply {
  const cluster = clusterOf(req);
  const bodyForce = (req.body as { force?: unknown } | undefined)?.force;
  const rawForce = req.query.get("force") ?? bodyForce;
  const force = rawForce === undefined ? false : parseWith(boolField, rawForce);
  if (rawForce !== undefined) requireMicroversion(req.version, "deleteForce");
  if (!force && DELETE_BLOCKING.has(cluster.status)) {
    throw new SenlinError("ActionInProgress", `The cluster '${req.params.cluster_id}' is in status ${cluster.status}.`);
  }
  if (req.env.store.bindings(cluster.id).length > 0) {
    throw new SenlinError("ResourceInUse", `The cluster '${req.params.cluster_id}' cannot be deleted: there is still policy(s) attached to it.`);
  }
  const reply = startClusterAction(req, cluster, "CLUSTER_DELETE", "cluster_delete", {});
  return { ...reply, body: null };
}

/** Cluster CRUD handlers by operation name. */
export const CLUSTER_HANDLERS = {
  ListClusters: listClusters,
  CreateCluster: createCluster,
  GetCluster: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { cluster: renderCluster(req.env.store, clusterOf(req)) } }),
  UpdateCluster: updateCluster,
  DeleteCluster: deleteCluster,
} as const;
