import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { TokenInfo } from "../keystone/tokens";
import { CLUSTER_ACTIONS } from "./cluster-actions";
import { clusterOf } from "./cluster-routes";
import { findIn, ownerOf, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, httpBadRequest, SenlinError } from "./errors";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import { hasFeature } from "./microversion";
import type { ReceiverRecord } from "./records";
import { senlinTime } from "./render";
import { nameField, objectField, parseWith } from "./validation";

/**
 * The cluster actions a webhook runs here, by engine name, with the key of the actions route whose
 * handler starts them. Senlin runs any cluster action a receiver names; CLUSTER_UPDATE,
 * CLUSTER_DELETE and CLUSTER_OPERATION have no actions-route key, and the plane does not run them
 * from a webhook (README.md).
 */
const WEBHOOK_ACTIONS: Readonly<Record<string, string>> = {
  CLUSTER_SCALE_OUT: "scale_out",
  CLUSTER_SCALE_IN: "scale_in",
  CLUSTER_RESIZE: "resize",
  CLUSTER_CHECK: "check",
  CLUSTER_RECOVER: "recover",
  CLUSTER_ADD_NODES: "add_nodes",
  CLUSTER_DEL_NODES: "del_nodes",
  CLUSTER_REPLACE_NODES: "replace_nodes",
  CLUSTER_ATTACH_POLICY: "policy_attach",
  CLUSTER_DETACH_POLICY: "policy_detach",
  CLUSTER_UPDATE_POLICY: "policy_update",
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

/** A param's value as Python's `urlencode` writes it (`str()`): booleans and None as Python spells them. */
function pythonText(value: unknown): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  return String(value);
}

/**
 * The webhook URL of a receiver: `V=2` marks the URL form the trigger route accepts, and the params
 * the receiver was created with follow as query parameters, sorted by key (Senlin's
 * `Webhook.initialize_channel`). Senlin builds it once, at creation: an update of the params leaves
 * it as it was, and a trigger reads no query parameter but `V`.
 */
function alarmUrl(req: SenlinRequest, r: ReceiverRecord): string {
  const params = new URLSearchParams();
  const given = r.createParams ?? r.params;
  for (const key of Object.keys(given).sort()) params.append(key, pythonText(given[key]));
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

/** The request object's enum field: an action name Senlin does not know is refused before the engine looks. */
function knownAction(action: string): string {
  if (!CLUSTER_ACTION_NAMES.includes(action)) throw new SenlinError("HTTPBadRequest", `Value '${action}' is not acceptable for field 'action'.`);
  return action;
}

/** The cluster a receiver names; a missing one is the caller's mistake (400), as Senlin's `enhance_msg('referenced')` words it. */
function referencedCluster(req: SenlinRequest, identity: string) {
  try {
    return clusterOf({ ...req, params: { cluster_id: identity } });
  } catch (error) {
    if (error instanceof SenlinError && error.status === 404) throw badRequest(`The referenced cluster '${identity}' could not be found.`);
    throw error;
  }
}

function createReceiver(req: SenlinRequest): SenlinReply {
  const body = parseWith(createBody, wrappedBody(req, "receiver"));
  let clusterId: string | null = null;
  let action: string | null = body.action === undefined ? null : knownAction(body.action);
  // Senlin's receiver_create: any cluster action but CLUSTER_CREATE, on a cluster that exists.
  if (body.type === "webhook") {
    if (!body.cluster_id) throw badRequest("Cluster identity is required for creating webhook receiver.");
    if (action === null) throw badRequest("Action name is required for creating webhook receiver.");
    if (action === "CLUSTER_CREATE") throw badRequest("Action name cannot be any of ['CLUSTER_CREATE'].");
    clusterId = referencedCluster(req, body.cluster_id).id;
  } else {
    action = null;
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
  // Only the enum check: Senlin's receiver_update takes any action name it knows.
  if (body.action !== undefined && body.action !== receiver.action) changes.action = knownAction(body.action);
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
 * The inputs a trigger adds to the receiver's params (Senlin 14's webhook controller and
 * `webhook_trigger`): from 1.10 every key of the body; before, the body's `params` for a `V=1` URL
 * and every key of the body for `V=2` (no body reads as `{"params": null}` then, which adds a
 * `params` key the actions ignore). The query's other parameters are never read: the URL's copy of
 * the params is informational.
 */
function triggerInputs(req: SenlinRequest): Record<string, unknown> {
  const body = typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : undefined;
  if (hasFeature(req.version, "webhookBodyParams")) return body ?? {};
  if (req.query.getAll("V").join(",") === "1") {
    const params = body?.params;
    return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  }
  return body ?? { params: null };
}

/**
 * `POST /v1/webhooks/{id}/trigger?V=<n>`: no token (the URL is the credential); runs the
 * receiver's cluster action with its params and the trigger's inputs over them, and answers 202
 * `{"action": id}`.
 */
function triggerWebhook(req: SenlinRequest): SenlinReply {
  if (!req.query.has("V")) throw httpBadRequest("V query parameter is required in webhook trigger URL");
  const receiver = req.env.store.receivers.get(req.params.webhook_id);
  if (receiver?.type !== "webhook" || receiver.clusterId === null || receiver.action === null) {
    throw new SenlinError("ResourceNotFound", `The receiver '${req.params.webhook_id}' could not be found.`);
  }
  const asOwner: SenlinRequest = { ...req, token: ownerToken(receiver, req.nowMs) };
  const cluster = referencedCluster(asOwner, receiver.clusterId);
  const key = WEBHOOK_ACTIONS[receiver.action];
  if (key === undefined) throw badRequest(`the local plane does not run ${receiver.action} from a webhook (it runs ${Object.keys(WEBHOOK_ACTIONS).join(", ")})`);
  // The engine reads the inputs it knows; the `params: null` of a bodiless V=2 trigger is not one of them.
  const { params: _ignored, ...inputs } = { ...receiver.params, ...triggerInputs(req) };
  return CLUSTER_ACTIONS[key].handle({ ...asOwner, params: { cluster_id: cluster.id } }, cluster, inputs);
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
