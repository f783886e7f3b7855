import { randomUUID } from "node:crypto";
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

const createBody = z.strictObject({
  name: nameField,
  type: z.enum(["webhook", "message"]),
  cluster_id: z.string().min(1).optional(),
  action: z.string().optional(),
  actor: objectField.optional(),
  params: objectField.optional(),
});

const updateBody = z.strictObject({ name: nameField.optional(), action: z.string().optional(), params: objectField.optional() });

/** The webhook URL of a receiver: `V=2` marks the URL form the trigger route accepts. */
function alarmUrl(req: SenlinRequest, id: string): string {
  return `${req.env.rootUrl()}/v1/webhooks/${id}/trigger?V=2`;
}

function render(req: SenlinRequest, r: ReceiverRecord): Record<string, unknown> {
  return {
    action: r.action,
    actor: {},
    channel: r.type === "webhook" ? { alarm_url: alarmUrl(req, r.id) } : { queue_name: `senlin-receiver-${r.id}` },
    cluster_id: r.clusterId,
    created_at: senlinTime(r.createdAtMs),
    domain: r.domain,
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
  if (action === undefined || !(action in WEBHOOK_ACTIONS)) {
    throw badRequest(`Illegal cluster action '${action ?? "None"}' specified.`);
  }
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
