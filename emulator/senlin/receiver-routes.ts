import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { TokenInfo } from "../keystone/tokens";
import { CLUSTER_ACTIONS } from "./cluster-actions";
import { clusterOf } from "./cluster-routes";
import { findIn, ownerOf, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, SenlinError } from "./errors";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import { hasFeature } from "./microversion";
import type { ReceiverRecord } from "./records";
import { senlinTime } from "./render";
import { nameField, objectField, parseWith } from "./validation";

/** The cluster actions a webhook may run, by engine name, with the key of the actions route they use. */
const WEBHOOK_ACTIONS: Readonly<Record<string, string>> = {
  CLUSTER_SCALE_OUT: "scale_out",
  CLUSTER_SCALE_IN: "scale_in",
  CLUSTER_RESIZE: "resize",
  CLUSTER_CHECK: "check",
  CLUSTER_RECOVER: "recover",
};

/** Every cluster action name Senlin knows (`consts.CLUSTER_ACTION_NAMES`): a receiver's `action` field is an enum of them. */
const CLUSTER_ACTION_NAMES: readonly string[] = [
  "CLUSTER_CREATE", "CLUSTER_DELETE", "CLUSTER_UPDATE", "CLUSTER_ADD_NODES", "CLUSTER_DEL_NODES", "CLUSTER_RESIZE", "CLUSTER_CHECK",
  "CLUSTER_RECOVER", "CLUSTER_REPLACE_NODES", "CLUSTER_SCALE_OUT", "CLUSTER_SCALE_IN", "CLUSTER_ATTACH_POLICY", "CLUSTER_DETACH_POLICY",
  "CLUSTER_UPDATE_POLICY", "CLUSTER_OPERATION",
];

const createBody = z.strictObject({
  name: nameField,
  type: z.enum(["webhook", "message"]),
  cluster_id: z.string().min(1).optional(),
  action: z.string().optional(),
  actor: objectField.optional(),
  params: objectField.optional(),
});

const updateBody = z.strictObject({ name: nameField.optional(), action: z.string().optional(), params: objectField.optional() });

/**
 * The webhook URL of a receiver: `V=2` marks the URL form the trigger route accepts, and the params
 * the receiver was created with follow as query parameters. Senlin builds it once, at creation:
 * an update of the params leaves it as it was.
 */
function alarmUrl(req: SenlinRequest, r: ReceiverRecord): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(r.createParams ?? r.params)) params.append(key, String(value));
  const query = params.size > 0 ? `&${params.toString()}` : "";
  return `${req.env.rootUrl()}/v1/webhooks/${r.id}/trigger?V=2${query}`;
}

/** The Keystone trust a webhook acts through (Senlin makes one per receiver; here a stable id stands for it). */
function trustIdOf(r: ReceiverRecord): string {
  const hex = createHash("sha256").update(`trust:${r.id}`).digest("hex");
  return hex.slice(0, 32);
}

function render(req: SenlinRequest, r: ReceiverRecord): Record<string, unknown> {
  return {
    action: r.action,
    actor: r.type === "webhook" ? { trust_id: trustIdOf(r) } : {},
    channel: r.type === "webhook" ? { alarm_url: alarmUrl(req, r) } : { queue_name: `senlin-receiver-${r.id}` },
    cluster_id: r.clusterId,
    created_at: senlinTime(r.createdAtMs),
    // A project-scoped token leaves the context's domain unset: Senlin answers null.
    domain: null,
    id: r.id,
    name: r.name,
    params: r.params,
    project: r.project,
    type: r.type,
    updated_at: senlinTime(r.updatedAtMs),
    user: r.user,
  };
}

function checkAction(action: string | undefined): string {
  if (action === undefined) throw badRequest("Illegal cluster action 'None' specified.");
  // The request object's enum field refuses an action Senlin does not know, before the engine looks;
  // the engine then refuses a cluster action a webhook cannot run.
  if (!CLUSTER_ACTION_NAMES.includes(action)) throw new SenlinError("HTTPBadRequest", `Value '${action}' is not acceptable for field 'action'.`);
  if (!(action in WEBHOOK_ACTIONS)) throw badRequest(`Illegal cluster action '${action}' specified.`);
  return action;
}

function createReceiver(req: SenlinRequest): SenlinReply {
  const body = parseWith(createBody, wrappedBody(req, "receiver"));
  let clusterId: string | null = null;
  let action: string | null = null;
  if (body.type === "webhook") {
    if (!body.cluster_id) throw badRequest("Cluster identity is required for creating webhook receiver.");
    action = checkAction(body.action);
    clusterId = clusterOf({ ...req, params: { cluster_id: body.cluster_id } }).id;
  }
  const receiver: ReceiverRecord = {
    ...ownerOf(req),
    id: randomUUID(),
    name: body.name,
    type: body.type,
    clusterId,
    action,
    params: body.params ?? {},
    createParams: body.params ?? {},
    createdAtMs: req.nowMs,
    updatedAtMs: null,
  };
  req.env.store.receivers.insert(receiver);
  return { status: 201, body: { receiver: render(req, receiver) } };
}

const receiverOf = (req: SenlinRequest) => findIn(req.env.store.receivers, req.token.projectId, req.params.receiver_id, "receiver");

function updateReceiver(req: SenlinRequest): SenlinReply {
  const receiver = receiverOf(req);
  const body = parseWith(updateBody, wrappedBody(req, "receiver"));
  const changes: Partial<ReceiverRecord> = {};
  if (body.name !== undefined && body.name !== receiver.name) changes.name = body.name;
  if (body.action !== undefined && body.action !== receiver.action) changes.action = checkAction(body.action);
  if (body.params !== undefined && JSON.stringify(body.params) !== JSON.stringify(receiver.params)) changes.params = body.params;
  if (Object.keys(changes).length === 0) throw badRequest("No property needs an update.");
  const updated = req.env.store.receivers.update(receiver.id, (r) => ({ ...r, ...changes, updatedAtMs: req.nowMs }))!;
  return { status: 200, body: { receiver: render(req, updated) } };
}

const RECEIVER_LIST: ListSpec<ReceiverRecord> = {
  filters: { name: (r) => r.name, type: (r) => r.type, cluster_id: (r) => r.clusterId, action: (r) => r.action, user: (r) => r.user },
  sortKeys: { name: (r) => r.name, type: (r) => r.type, action: (r) => r.action, cluster_id: (r) => r.clusterId, created_at: (r) => r.createdAtMs },
};

/** The identity a webhook acts as: the receiver's owner, as Senlin acts through the owner's trust. */
function ownerToken(r: ReceiverRecord, nowMs: number): TokenInfo {
  return { auditId: "", userId: r.user, userName: "", projectId: r.project, projectName: "", domainId: r.domain, domainName: "", roles: [], issuedMs: nowMs, expiresMs: nowMs };
}

/**
 * `POST /v1/webhooks/{id}/trigger`: no token (the URL is the credential); runs the receiver's
 * cluster action with its params, overridden by the body's `params` (from 1.10) or the query's
 * (before 1.10), and answers 202 `{"action": id}`.
 */
function triggerWebhook(req: SenlinRequest): SenlinReply {
  const receiver = req.env.store.receivers.get(req.params.webhook_id);
  if (receiver?.type !== "webhook" || receiver.clusterId === null || receiver.action === null) {
    throw new SenlinError("ResourceNotFound", `The receiver '${req.params.webhook_id}' could not be found.`);
  }
  const given = hasFeature(req.version, "webhookBodyParams")
    ? ((req.body as { params?: Record<string, unknown> } | undefined)?.params ?? {})
    : Object.fromEntries([...req.query.entries()].filter(([k]) => k !== "V"));
  const asOwner: SenlinRequest = { ...req, token: ownerToken(receiver, req.nowMs), params: { cluster_id: receiver.clusterId } };
  const cluster = clusterOf(asOwner);
  const entry = CLUSTER_ACTIONS[WEBHOOK_ACTIONS[receiver.action]];
  return entry.handle(asOwner, cluster, { ...receiver.params, ...given });
}

/** Receiver handlers by operation name. */
export const RECEIVER_HANDLERS = {
  ListReceivers: (req: SenlinRequest): SenlinReply => {
    const project = isGlobalListing(req) ? undefined : req.token.projectId;
    const rows = applyListQuery(req, req.env.store.receivers.list(project), RECEIVER_LIST);
    return { status: 200, body: { receivers: rows.map((r) => render(req, r)) } };
  },
  CreateReceiver: createReceiver,
  GetReceiver: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { receiver: render(req, receiverOf(req)) } }),
  UpdateReceiver: updateReceiver,
  DeleteReceiver: (req: SenlinRequest): SenlinReply => {
    req.env.store.receivers.delete(receiverOf(req).id);
    return { status: 204 };
  },
  NotifyReceiver: (req: SenlinRequest): SenlinReply => {
    if (receiverOf(req).type !== "message") throw badRequest("Notifying non-message receiver is not allowed.");
    return { status: 204 };
  },
  TriggerWebhook: triggerWebhook,
} as const;
