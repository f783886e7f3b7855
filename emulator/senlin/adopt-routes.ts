import { randomUUID } from "node:crypto";
import { z } from "zod";
import { PROFILE_TYPES } from "./catalog-routes";
import { randomName } from "./cluster-state";
import { ownerOf, type SenlinReply, type SenlinRequest } from "./context";
import { badRequest, SenlinError } from "./errors";
import { requireMicroversion } from "./microversion";
import type { NodeRecord, ProfileRecord } from "./records";
import { renderNode, senlinTime } from "./render";
import { boolField, nameField, objectField, parseWith } from "./validation";

// Node adoption (1.7) and the service list: the routes of Senlin's router beyond the everyday ones.
// Both adoption routes take an unwrapped body (NodeAdoptRequest / NodeAdoptPreviewRequest).

const previewBody = z.strictObject({
  identity: z.string().min(1),
  type: z.string().min(1),
  overrides: objectField.optional(),
  snapshot: boolField.optional(),
});

const adoptBody = previewBody.extend({
  name: nameField.optional(),
  role: z.string().optional(),
  metadata: objectField.optional(),
});

/** A node record whose physical resource has this id: the plane's stand-in for asking Nova about the server. */
function knownServer(req: SenlinRequest, identity: string): NodeRecord | undefined {
  return req.env.store.nodes.list(undefined, "json_extract(doc, '$.physicalId') = ?", identity)[0];
}

/**
 * The spec adoption derives (the engine's `_node_adopt_preview`): the profile type split into type
 * and version, and the properties the physical resource has, overridden by `overrides`. The
 * plane knows the servers its own nodes made; any other id is an unknown server, which the profile
 * plugin reports and the engine raises as ProfileOperationFailed (500).
 */
function adoptionSpec(req: SenlinRequest, body: z.infer<typeof previewBody>): { type: string; version: string; properties: Record<string, unknown> } {
  if (!(body.type in PROFILE_TYPES)) throw badRequest(`The profile_type '${body.type}' could not be found.`);
  const server = knownServer(req, body.identity);
  if (!server) throw new SenlinError("ProfileOperationFailed", `404: The server (${body.identity}) could not be found.`);
  const profile = req.env.store.profiles.get(server.profileId);
  const properties = (profile?.spec.properties ?? {}) as Record<string, unknown>;
  const [type, version] = body.type.split("-");
  return { type, version, properties: { ...properties, ...(body.overrides ?? {}) } };
}

/** `POST /v1/nodes/adopt-preview`: 200 with the spec doubly wrapped, as the controller wraps the engine's `node_preview`. */
function previewAdoption(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "nodeAdopt");
  const spec = adoptionSpec(req, parseWith(previewBody, req.body));
  return { status: 200, body: { node_profile: { node_preview: spec } } };
}

/** Senlin's `random_name()`: eight letters and digits. */
/** `POST /v1/nodes/adopt`: makes a profile `prof-<name>` from the resource and an ACTIVE orphan node on it; 200, no action. */
function adoptNode(req: SenlinRequest): SenlinReply {
  requireMicroversion(req.version, "nodeAdopt");
  const body = parseWith(adoptBody, req.body);
  const spec = adoptionSpec(req, body);
  const name = body.name ?? `node-${randomName(8)}`;
  const owner = ownerOf(req);
  const profile: ProfileRecord = {
    ...owner,
    id: randomUUID(),
    name: `prof-${name}`,
    type: body.type,
    spec,
    metadata: {},
    createdAtMs: req.nowMs,
    updatedAtMs: null,
  };
  req.env.store.profiles.insert(profile);
  const node: NodeRecord = {
    ...owner,
    id: randomUUID(),
    name,
    profileId: profile.id,
    clusterId: "",
    index: -1,
    role: "",
    status: "ACTIVE",
    statusReason: "Node adopted successfully",
    physicalId: body.identity,
    metadata: body.metadata ?? {},
    data: {},
    initAtMs: req.nowMs,
    createdAtMs: req.nowMs,
    updatedAtMs: null,
  };
  req.env.store.nodes.insert(node);
  return { status: 200, body: { node: renderNode(req.env.store, node, req.version) } };
}

/** The engine's services, each reported alive (the plane runs them all in one process). */
const SERVICES = ["senlin-conductor", "senlin-engine", "senlin-health-manager"];

/** `GET /v1/services`: admins only (Forbidden otherwise, checked in the controller). */
function listServices(req: SenlinRequest): SenlinReply {
  if (!req.token.roles.includes("admin")) throw new SenlinError("Forbidden", "You are not authorized to complete this operation.");
  const services = SERVICES.map((binary) => ({
    binary,
    disabled_reason: null,
    host: "clusterform-local",
    id: serviceId(binary),
    state: "up",
    status: "enabled",
    topic: binary,
    updated_at: senlinTime(req.nowMs),
  }));
  return { status: 200, body: { services } };
}

/** A stable UUID-shaped id per service name, so two listings agree. */
function serviceId(name: string): string {
  const hex = Buffer.from(name.padEnd(16, "-")).toString("hex").slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Adoption and service handlers by operation name. */
export const ADOPT_HANDLERS = {
  AdoptNode: adoptNode,
  PreviewNodeAdoption: previewAdoption,
  ListServices: listServices,
} as const;
