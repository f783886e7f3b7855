import { z } from "zod";
import { assertNoConflict, startClusterAction } from "./cluster-routes";
import { findIn, type SenlinReply, type SenlinRequest } from "./context";
import { badRequest, SenlinError } from "./errors";
import { requireMicroversion } from "./microversion";
import type { ClusterRecord, NodeRecord } from "./records";
import { checkSizeParams } from "./scaling";
import { boolField, parseWith } from "./validation";

const nodeList = z.array(z.string().min(1)).min(1, "expected a list of at least one node name, short id or UUID");

const addNodesParams = z.strictObject({ nodes: nodeList });
const delNodesParams = z.strictObject({ nodes: nodeList, destroy_after_deletion: boolField.optional() });
const replaceNodesParams = z.strictObject({
  nodes: z.record(z.string(), z.string()).refine((m) => Object.keys(m).length > 0, "expected a non-empty map of old node to new node"),
});

/** Looks nodes up, splitting them into found and not found (Senlin reports every missing one at once). */
function lookUpNodes(req: SenlinRequest, identities: readonly string[]): { found: NodeRecord[]; missing: string[] } {
  const found: NodeRecord[] = [];
  const missing: string[] = [];
  for (const identity of identities) {
    try {
      found.push(findIn(req.env.store.nodes, req.token.projectId, identity, "node"));
    } catch (error) {
      if (!(error instanceof SenlinError) || error.status !== 404 && error.type !== "MultipleChoices") throw error;
      missing.push(identity);
    }
  }
  return { found, missing };
}

function profileType(req: SenlinRequest, profileId: string): string | undefined {
  return req.env.store.profiles.get(profileId)?.type;
}

const list = (ids: readonly string[]) => `[${ids.map((id) => `'${id}'`).join(", ")}]`;

/** The 400 of a size change that leaves the cluster out of its bounds. */
function assertTarget(cluster: ClusterRecord, target: number): void {
  const error = checkSizeParams(cluster, target);
  if (error) throw badRequest(error);
}

/** `add_nodes`: orphan ACTIVE nodes of the cluster's profile type join it. */
export function addNodes(req: SenlinRequest, cluster: ClusterRecord, params: unknown): SenlinReply {
  const { nodes } = parseWith(addNodesParams, params);
  const { found, missing } = lookUpNodes(req, nodes);
  const type = profileType(req, cluster.profileId);
  const owned = found.filter((n) => n.clusterId !== "").map((n) => n.id);
  const messages = [
    [found.filter((n) => profileType(req, n.profileId) !== type).map((n) => n.id), (ids: string) => `Profile type of nodes ${ids} does not match that of the cluster.`],
    [found.filter((n) => n.status !== "ACTIVE").map((n) => n.id), (ids: string) => `Nodes are not ACTIVE: ${ids}.`],
    [missing, (ids: string) => `Nodes not found: ${ids}.`],
  ] as const;
  if (owned.length > 0) throw new SenlinError("NodeNotOrphan", `Nodes ${list(owned)} already owned by some cluster.`);
  const errors = messages.filter(([ids]) => ids.length > 0).map(([ids, text]) => text(list(ids)));
  if (errors.length > 0) throw badRequest(errors.join("\n"));
  const desiredCapacity = cluster.desiredCapacity + found.length;
  assertTarget(cluster, desiredCapacity);
  assertNoConflict(req, cluster, "CLUSTER_ADD_NODES");
  const ids = found.map((n) => n.id);
  return startClusterAction(req, cluster, "CLUSTER_ADD_NODES", "cluster_add_nodes", { nodes: ids }, {
    nodes: ids,
    size: { minSize: cluster.minSize, maxSize: cluster.maxSize, desiredCapacity },
  });
}

/** `del_nodes`: members leave the cluster, destroyed when `destroy_after_deletion` (1.4). */
export function delNodes(req: SenlinRequest, cluster: ClusterRecord, params: unknown): SenlinReply {
  const body = parseWith(delNodesParams, params);
  if (body.destroy_after_deletion !== undefined) requireMicroversion(req.version, "destroyAfterDeletion");
  const { found, missing } = lookUpNodes(req, body.nodes);
  const strangers = found.filter((n) => n.clusterId !== cluster.id).map((n) => n.id);
  const errors = [
    ...(missing.length > 0 ? [`Nodes not found: ${list(missing)}.`] : []),
    ...(strangers.length > 0 ? [`Nodes not members of specified cluster: ${list(strangers)}.`] : []),
  ];
  if (errors.length > 0) throw badRequest(errors.join("\n"));
  const desiredCapacity = cluster.desiredCapacity - found.length;
  assertTarget(cluster, desiredCapacity);
  assertNoConflict(req, cluster, "CLUSTER_DEL_NODES");
  const ids = found.map((n) => n.id);
  const destroy = body.destroy_after_deletion ?? false;
  const inputs = { candidates: ids, count: ids.length, ...(body.destroy_after_deletion !== undefined ? { destroy_after_deletion: destroy } : {}) };
  return startClusterAction(req, cluster, "CLUSTER_DEL_NODES", "cluster_del_nodes", inputs, {
    nodes: ids,
    destroy,
    size: { minSize: cluster.minSize, maxSize: cluster.maxSize, desiredCapacity },
  });
}

/** `replace_nodes` (1.3): each old member is swapped for an orphan ACTIVE node of the same profile type. */
export function replaceNodes(req: SenlinRequest, cluster: ClusterRecord, params: unknown): SenlinReply {
  requireMicroversion(req.version, "replaceNodes");
  const { nodes } = parseWith(replaceNodesParams, params);
  const type = profileType(req, cluster.profileId);
  const replacements: Record<string, string> = {};
  const problems = { notMember: [] as string[], owned: [] as string[], inactive: [] as string[], mismatch: [] as string[], oldMissing: [] as string[], newMissing: [] as string[] };
  for (const [oldIdentity, newIdentity] of Object.entries(nodes)) {
    const [oldNode] = lookUpNodes(req, [oldIdentity]).found;
    if (!oldNode) {
      problems.oldMissing.push(oldIdentity);
      continue;
    }
    const [newNode] = lookUpNodes(req, [newIdentity]).found;
    if (!newNode) {
      problems.newMissing.push(newIdentity);
      continue;
    }
    if (oldNode.clusterId !== cluster.id) problems.notMember.push(oldIdentity);
    if (newNode.clusterId !== "") problems.owned.push(newIdentity);
    if (newNode.status !== "ACTIVE") problems.inactive.push(newIdentity);
    if (profileType(req, newNode.profileId) !== type) problems.mismatch.push(newIdentity);
    replacements[oldNode.id] = newNode.id;
  }
  const errors = [
    [problems.notMember, (ids: string) => `The specified nodes ${ids} to be replaced are not members of the cluster ${cluster.id}.`],
    [problems.owned, (ids: string) => `Nodes ${ids} already member of a cluster.`],
    [problems.inactive, (ids: string) => `Nodes are not ACTIVE: ${ids}.`],
    [problems.mismatch, (ids: string) => `Profile type of nodes ${ids} do not match that of the cluster.`],
    [problems.oldMissing, (ids: string) => `Original nodes not found: ${ids}.`],
    [problems.newMissing, (ids: string) => `Replacement nodes not found: ${ids}.`],
  ] as const;
  const messages = errors.filter(([ids]) => ids.length > 0).map(([ids, text]) => text(list(ids)));
  if (messages.length > 0) throw badRequest(messages.join("\n"));
  assertNoConflict(req, cluster, "CLUSTER_REPLACE_NODES");
  return startClusterAction(req, cluster, "CLUSTER_REPLACE_NODES", "cluster_replace_nodes", { candidates: replacements }, { replacements });
}
