import { randomUUID } from "node:crypto";
import { z } from "zod";
import { findIn, ownerOf, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, SenlinError } from "./errors";
import { queueAction } from "./lifecycle";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import type { ActionName, ActionPlan, NodeRecord } from "./records";
import { renderNode } from "./render";
import { checkSizeParams } from "./scaling";
import { nameField, objectField, parseWith } from "./validation";

const nodeBody = z.strictObject({
  name: nameField,
  profile_id: z.string().min(1),
  cluster_id: z.string().nullish(),
  role: z.string().nullish(),
  metadata: objectField.optional(),
});

/** The caller's node named by the `node_id` path parameter (name, short id or UUID). */
export const nodeOf = (req: SenlinRequest) => findIn(req.env.store.nodes, req.token.projectId, req.params.node_id, "node");

/** Finds an object a body names; a missing one is the caller's mistake (400), as in the real server. */
export function specified<T>(kind: string, identity: string, find: () => T): T {
  try {
    return find();
  } catch (error) {
    if (error instanceof SenlinError && error.status === 404) throw badRequest(`The specified ${kind} '${identity}' could not be found.`);
    throw error;
  }
}

/** Queues a node action and answers 202 with its Location. */
export function startNodeAction(
  req: SenlinRequest,
  node: NodeRecord,
  action: ActionName,
  namePrefix: string,
  plan: ActionPlan = {},
  inputs: Record<string, unknown> = {},
): string {
  const failure = req.call.takeOperationFailure();
  return queueAction(req.env, req.nowMs, {
    owner: ownerOf(req),
    action,
    target: node.id,
    clusterId: node.clusterId,
    namePrefix,
    inputs,
    plan: failure === undefined ? plan : { ...plan, failure },
  }).id;
}

function createNode(req: SenlinRequest): SenlinReply {
  const body = parseWith(nodeBody, wrappedBody(req, "node"));
  const { store } = req.env;
  const project = req.token.projectId;
  const profile = specified("profile", body.profile_id, () => findIn(store.profiles, project, body.profile_id, "profile"));
  const clusterIdentity = body.cluster_id ?? "";
  const cluster = clusterIdentity ? specified("cluster", clusterIdentity, () => findIn(store.clusters, project, clusterIdentity, "cluster")) : undefined;
  let plan: ActionPlan = {};
  if (cluster) {
    if (store.profiles.get(cluster.profileId)?.type !== profile.type) throw badRequest("Node and cluster have different profile type, operation aborted.");
    const desiredCapacity = cluster.desiredCapacity + 1;
    const sizeError = checkSizeParams(cluster, desiredCapacity);
    if (sizeError) throw badRequest(sizeError);
    plan = { size: { minSize: cluster.minSize, maxSize: cluster.maxSize, desiredCapacity } };
    store.clusters.update(cluster.id, (c) => ({ ...c, nextIndex: c.nextIndex + 1 }));
  }
  const node: NodeRecord = {
    ...ownerOf(req),
    id: randomUUID(),
    name: body.name,
    profileId: profile.id,
    clusterId: cluster?.id ?? "",
    index: cluster ? cluster.nextIndex : -1,
    role: body.role ?? "",
    status: "INIT",
    statusReason: "Initializing",
    physicalId: null,
    metadata: body.metadata ?? {},
    data: {},
    initAtMs: req.nowMs,
    createdAtMs: null,
    updatedAtMs: null,
  };
  store.nodes.insert(node);
  const actionId = startNodeAction(req, node, "NODE_CREATE", "node_create", plan);
  return { status: 202, body: { node: renderNode(store, node, req.version) }, actionId };
}

const DELETE_BLOCKING = new Set(["CREATING", "UPDATING", "DELETING", "RECOVERING"]);

function deleteNode(req: SenlinRequest): SenlinReply {
  const node = nodeOf(req);
  if (DELETE_BLOCKING.has(node.status)) throw new SenlinError("ActionInProgress", `The node '${req.params.node_id}' is in status ${node.status}.`);
  return { status: 202, body: null, actionId: startNodeAction(req, node, "NODE_DELETE", "node_delete") };
}

function clusterFilter(req: SenlinRequest): string | undefined {
  const identity = req.query.get("cluster_id");
  if (!identity) return undefined;
  return specified("cluster", identity, () => findIn(req.env.store.clusters, req.token.projectId, identity, "cluster")).id;
}

const NODE_LIST: ListSpec<NodeRecord> = {
  filters: { name: (n) => n.name, status: (n) => n.status, cluster_id: () => "" },
  sortKeys: {
    name: (n) => n.name,
    index: (n) => n.index,
    status: (n) => n.status,
    init_at: (n) => n.initAtMs,
    created_at: (n) => n.createdAtMs,
    updated_at: (n) => n.updatedAtMs,
  },
};

function listNodes(req: SenlinRequest): SenlinReply {
  const clusterId = clusterFilter(req);
  const project = isGlobalListing(req) ? undefined : req.token.projectId;
  const candidates = req.env.store.nodes.list(project).filter((n) => clusterId === undefined || n.clusterId === clusterId);
  // cluster_id was resolved above (name, short id or UUID), so the generic filter must not apply it again.
  const query = new URLSearchParams(req.query);
  query.delete("cluster_id");
  const nodes = applyListQuery({ ...req, query }, candidates, NODE_LIST);
  return { status: 200, body: { nodes: nodes.map((n) => renderNode(req.env.store, n, req.version)) } };
}

/** Node handlers by operation name. */
export const NODE_HANDLERS = {
  ListNodes: listNodes,
  CreateNode: createNode,
  GetNode: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { node: renderNode(req.env.store, nodeOf(req), req.version) } }),
  DeleteNode: deleteNode,
} as const;
