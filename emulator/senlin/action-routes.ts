import { PROFILE_TYPES } from "./catalog-routes";
import { assertNoConflict, clusterOf, startClusterAction } from "./cluster-routes";
import { findIn, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { z } from "zod";
import { badRequest, SenlinError } from "./errors";
import { CANCELLABLE, cancelAction } from "./lifecycle";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import { hasFeature, requireMicroversion } from "./microversion";
import type { ActionRecord, NodeRecord } from "./records";
import { renderAction, renderNode } from "./render";
import { parseWith } from "./validation";

const ACTION_LIST: ListSpec<ActionRecord> = {
  filters: { name: (a) => a.name, target: (a) => a.target, action: (a) => a.action, status: (a) => a.status },
  sortKeys: {
    name: (a) => a.name,
    target: (a) => a.target,
    action: (a) => a.action,
    status: (a) => a.status,
    created_at: (a) => a.createdAtMs,
  },
};

function listActions(req: SenlinRequest): SenlinReply {
  const spec = hasFeature(req.version, "actionClusterId")
    ? { ...ACTION_LIST, filters: { ...ACTION_LIST.filters, cluster_id: (a: ActionRecord) => a.clusterId } }
    : ACTION_LIST;
  const project = isGlobalListing(req) ? undefined : req.token.projectId;
  const actions = applyListQuery(req, req.env.store.actions.list(project), spec);
  return { status: 200, body: { actions: actions.map((a) => renderAction(a, req.version)) } };
}

function getAction(req: SenlinRequest): SenlinReply {
  const action = findIn(req.env.store.actions, req.token.projectId, req.params.action_id, "action");
  return { status: 200, body: { action: renderAction(action, req.version) } };
}

const actionUpdate = z.strictObject({ status: z.string() });

/** `PATCH /v1/actions/{id}` (1.12): only `{"status": "CANCELLED"}`, for an unfinished action. */
function updateAction(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "actionCancel");
  const action = findIn(req.env.store.actions, req.token.projectId, req.params.action_id, "action");
  const { status } = parseWith(actionUpdate, wrappedBody(req, "action"));
  if (status !== "CANCELLED") throw badRequest(`Unknown status ${status} for action ${action.name}`);
  if (!CANCELLABLE.includes(action.status)) {
    throw new SenlinError(
      "ActionImmutable",
      `Action (${action.id}) is in status (${action.status}) while expected status must be one of (${CANCELLABLE.join(", ")}).`,
    );
  }
  cancelAction(req.env.store, action, req.nowMs);
  return { status: 202 };
}

/** Reads a dotted path (`metadata.role`, `details.addresses`) from a node's dict; undefined when absent. */
function readPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !(key in current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What `details` shows of a node's physical server. */
function detailsOf(node: NodeRecord): Record<string, unknown> {
  return { id: node.physicalId, name: node.name, status: node.status === "ACTIVE" ? "ACTIVE" : "BUILD", addresses: {} };
}

/** `GET /v1/clusters/{id}/attrs/{path}` (1.2): one attribute of every member that has it. */
function collectAttrs(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "collectAttrs");
  const raw = req.params.path ?? "";
  if (raw === "" || raw === "None") throw badRequest(`Invalid attribute path - ${raw === "" ? "None" : raw}`);
  const path = raw.split(".");
  if (path.some((part) => part === "")) throw badRequest(`Invalid attribute path - ${raw}`);
  const cluster = clusterOf(req);
  const attrs = req.env.store.members(cluster.id).flatMap((node) => {
    const info = { ...renderNode(req.env.store, node, req.version), ...(node.physicalId ? { details: detailsOf(node) } : {}) };
    const value = readPath(info, path);
    return value === undefined ? [] : [{ id: node.id, value }];
  });
  return { status: 200, body: { cluster_attributes: attrs } };
}

const NODE_FILTERS = ["name", "profile_id", "status", "role"];

/** `POST /v1/clusters/{id}/ops` (1.4): one profile operation on the matching members. */
function clusterOperation(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "clusterOps");
  const cluster = clusterOf(req);
  const body = req.body;
  if (typeof body !== "object" || body === null || Object.keys(body).length === 0) throw badRequest("No operation specified");
  const keys = Object.keys(body);
  if (keys.length > 1) throw badRequest("Multiple operations specified");
  const [operation] = keys;
  const spec = ((body as Record<string, unknown>)[operation] ?? {}) as { filters?: Record<string, unknown>; params?: Record<string, unknown> };
  const type = req.env.store.profiles.get(cluster.profileId)?.type ?? "";
  if (!(PROFILE_TYPES[type] ?? []).includes(operation)) {
    throw badRequest(`The requested operation '${operation}' is not supported by the profile type '${type}'.`);
  }
  const filters = spec.filters ?? {};
  const unsupported = Object.keys(filters).filter((k) => !NODE_FILTERS.includes(k));
  if (unsupported.length > 0) throw badRequest(unsupported.map((k) => `Filter key '${k}' is unsupported`).join("\n"));
  const nodes = req.env.store
    .members(cluster.id)
    .filter((n) => Object.entries(filters).every(([k, v]) => String({ name: n.name, profile_id: n.profileId, status: n.status, role: n.role }[k]) === String(v)))
    .map((n) => n.id);
  if (nodes.length === 0) throw badRequest("No node (matching the filter) could be found");
  assertNoConflict(req, cluster, "CLUSTER_OPERATION");
  const inputs = { operation, params: spec.params ?? {}, nodes };
  return startClusterAction(req, cluster, "CLUSTER_OPERATION", `cluster_${operation}`, inputs, { operation });
}

/**
 * `POST /v1/actions`: routed by Senlin, but its handler's policy rule (`actions:create`) is not
 * among the rules Senlin registers, and oslo.policy fails closed on an unknown rule: every caller,
 * admins too, gets Senlin's Forbidden (under a policy file that allowed it, the handler would go on
 * to call an RPC method the engine no longer has, a 500).
 */
function createAction(): SenlinReply {
  throw new SenlinError("Forbidden", "You are not authorized to complete this operation.");
}

/** Action reads, attribute collection and profile operations, by operation name. */
export const ACTION_HANDLERS = {
  ListActions: listActions,
  CreateAction: createAction,
  GetAction: getAction,
  UpdateAction: updateAction,
  CollectClusterAttrs: collectAttrs,
  PerformClusterOperation: clusterOperation,
} as const;

