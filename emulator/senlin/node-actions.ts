import { z } from "zod";
import { PROFILE_TYPES } from "./catalog-routes";
import { findIn, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, SenlinError } from "./errors";
import { requireMicroversion } from "./microversion";
import { nodeOf, specified, startNodeAction } from "./node-routes";
import type { ActionPlan, NodeRecord } from "./records";
import { renderNode } from "./render";
import { nameField, objectField, parseWith } from "./validation";

const updateBody = z.strictObject({
  name: nameField.optional(),
  profile_id: z.string().min(1).optional(),
  role: z.string().optional(),
  metadata: objectField.optional(),
  tainted: z.boolean().optional(),
});

/** A node that is being changed refuses another change (the engine's node lock). */
const BUSY = new Set(["CREATING", "UPDATING", "DELETING", "RECOVERING", "OPERATING"]);

function assertIdle(req: SenlinRequest, node: NodeRecord): void {
  if (BUSY.has(node.status)) throw new SenlinError("ActionInProgress", `The node '${req.params.node_id}' is in status ${node.status}.`);
}

/** `PATCH /v1/nodes/{id}`: name, role, metadata, profile (same type); 202 with the node and a Location. */
function updateNode(req: SenlinRequest): SenlinReply {
  const node = nodeOf(req);
  const body = parseWith(updateBody, wrappedBody(req, "node"));
  if (body.tainted !== undefined) requireMicroversion(req.version, "nodeTainted");
  const changes: NonNullable<ActionPlan["changes"]> = {};
  if (body.profile_id !== undefined) {
    const { store } = req.env;
    const next = specified("profile", body.profile_id, () => findIn(store.profiles, req.token.projectId, body.profile_id!, "profile"));
    if (next.type !== store.profiles.get(node.profileId)?.type) throw badRequest("Cannot update a node to a different profile type, operation aborted.");
    if (next.id !== node.profileId) changes.profileId = next.id;
  }
  if (body.name !== undefined && body.name !== node.name) changes.name = body.name;
  if (body.role !== undefined && body.role !== node.role) changes.role = body.role;
  if (body.metadata !== undefined && JSON.stringify(body.metadata) !== JSON.stringify(node.metadata)) changes.metadata = body.metadata;
  if (Object.keys(changes).length === 0) throw badRequest("No property needs an update.");
  assertIdle(req, node);
  const actionId = startNodeAction(req, node, "NODE_UPDATE", "node_update", { changes }, { ...changes });
  return { status: 202, body: { node: renderNode(req.env.store, node, req.version) }, actionId };
}

const RECOVERY_OPERATIONS = ["REBOOT", "REBUILD", "RECREATE"];

/** The node actions of `POST /v1/nodes/{id}/actions`, with their audited operation names. */
const NODE_ACTIONS: Readonly<Record<string, { operation: string; start(req: SenlinRequest, node: NodeRecord, params: Record<string, unknown>): string }>> = {
  check: { operation: "CheckNode", start: (req, node, params) => startNodeAction(req, node, "NODE_CHECK", "node_check", {}, params) },
  recover: {
    operation: "RecoverNode",
    start: (req, node, params) => {
      const { operation, check } = params;
      if (operation !== undefined && (typeof operation !== "string" || !RECOVERY_OPERATIONS.includes(operation.toUpperCase()))) {
        throw badRequest(`Operation value '${String(operation)}' has to be one of the following: ${RECOVERY_OPERATIONS.join(", ")}.`);
      }
      if (check !== undefined) requireMicroversion(req.version, "recoverCheck");
      return startNodeAction(req, node, "NODE_RECOVER", "node_recover", {}, params);
    },
  },
};

/** The operation a node action body is audited under. */
export function nodeActionOperation(body: unknown): string {
  const keys = typeof body === "object" && body !== null ? Object.keys(body) : [];
  return keys.length === 1 ? (NODE_ACTIONS[keys[0]]?.operation ?? "NodeAction") : "NodeAction";
}

/** `POST /v1/nodes/{id}/actions`: `check` or `recover`, one key whose value is a map; 202 `{"action": id}`. */
function nodeAction(req: SenlinRequest): SenlinReply {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const keys = typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
  if (keys.length === 0) throw badRequest("No action specified.");
  if (keys.length > 1) throw badRequest("Multiple actions specified.");
  const entry = NODE_ACTIONS[keys[0]];
  if (!entry) throw badRequest(`Unrecognized action '${keys[0]}' specified`);
  const params = body[keys[0]];
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw badRequest("The params provided is not a map.");
  const node = nodeOf(req);
  assertIdle(req, node);
  const actionId = entry.start(req, node, params as Record<string, unknown>);
  return { status: 202, body: { action: actionId }, actionId };
}

/** `POST /v1/nodes/{id}/ops` (1.4): one operation of the node's profile type; 202 `{"action": id}`. */
function nodeOperation(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "clusterOps");
  const body = (req.body ?? {}) as Record<string, unknown>;
  const keys = typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
  if (keys.length === 0) throw badRequest("No operation specified.");
  if (keys.length > 1) throw badRequest("Multiple operations specified.");
  const [operation] = keys;
  const node = nodeOf(req);
  const type = req.env.store.profiles.get(node.profileId)?.type ?? "";
  if (!(PROFILE_TYPES[type] ?? []).includes(operation)) {
    throw badRequest(`The requested operation '${operation}' is not supported by the profile type '${type}'.`);
  }
  assertIdle(req, node);
  const params = body[operation] ?? {};
  const actionId = startNodeAction(req, node, "NODE_OPERATION", `node_${operation}`, { operation }, { operation, params });
  return { status: 202, body: { action: actionId }, actionId };
}

/** Node update, actions and operations by operation name. */
export const NODE_ACTION_HANDLERS = { UpdateNode: updateNode, NodeAction: nodeAction, PerformNodeOperation: nodeOperation } as const;

/** Operation names node action bodies are audited under. */
export const NODE_ACTION_OPERATIONS = Object.values(NODE_ACTIONS).map((a) => a.operation);
