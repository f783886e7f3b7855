import { randomUUID } from "node:crypto";
import { z } from "zod";
import { findIn, ownerOf, type SenlinReply, type SenlinRequest, wrappedBody } from "./context";
import { badRequest, notFound, SenlinError } from "./errors";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import type { PolicyRecord, ProfileRecord } from "./records";
import { renderPolicy, renderProfile } from "./render";
import { nameField, objectField, parseWith } from "./validation";

/**
 * The profile types a stock Senlin installs, with the operations each offers to `/ops`
 * (`OPERATIONS` of each profile plugin).
 */
export const PROFILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  "os.nova.server-1.0": [
    "reboot", "rebuild", "change_password", "suspend", "resume", "lock", "unlock", "pause", "unpause",
    "rescue", "unrescue", "start", "stop", "migrate", "evacuate",
  ],
  "os.heat.stack-1.0": ["abandon"],
  "container.dockerinc.docker-1.0": ["reboot", "pause", "unpause", "start", "stop"],
};

/** The policy types a stock Senlin installs. */
export const POLICY_TYPES: readonly string[] = [
  "senlin.policy.affinity-1.0",
  "senlin.policy.batch-1.0",
  "senlin.policy.deletion-1.0",
  "senlin.policy.deletion-1.1",
  "senlin.policy.health-1.0",
  "senlin.policy.health-1.1",
  "senlin.policy.health-1.2",
  "senlin.policy.loadbalance-1.0",
  "senlin.policy.loadbalance-1.1",
  "senlin.policy.loadbalance-1.3",
  "senlin.policy.region_placement-1.0",
  "senlin.policy.scaling-1.0",
  "senlin.policy.zone_placement-1.0",
];

const specField = z.object({ type: z.string().min(1), version: z.union([z.string(), z.number()]), properties: objectField.optional() }).passthrough();

const profileBody = z.strictObject({ name: nameField, spec: specField, metadata: objectField.optional() });
const policyBody = z.strictObject({ name: nameField, spec: specField });
const profileUpdate = z.strictObject({ name: nameField.optional(), metadata: objectField.optional() });
const policyUpdate = z.strictObject({ name: nameField.optional() });

/** `<type>-<version>` of a spec, checked against the installed types. */
function typeOf(spec: z.infer<typeof specField>, kind: "profile_type" | "policy_type", installed: readonly string[]): string {
  const version = typeof spec.version === "number" ? spec.version.toFixed(1) : spec.version;
  const type = `${spec.type}-${version}`;
  // The engine's environment raises ResourceNotFound for a type no plugin provides (404 on Senlin 14).
  if (!installed.includes(type)) throw notFound(kind, type);
  return type;
}

const BY_NAME_AND_TIME = {
  name: (o: { name: string }) => o.name,
  type: (o: { type: string }) => o.type,
  created_at: (o: { createdAtMs: number }) => o.createdAtMs,
  updated_at: (o: { updatedAtMs: number | null }) => o.updatedAtMs,
};

const PROFILE_LIST: ListSpec<ProfileRecord> = { filters: { name: (p) => p.name, type: (p) => p.type }, sortKeys: BY_NAME_AND_TIME };
const POLICY_LIST: ListSpec<PolicyRecord> = { filters: { name: (p) => p.name, type: (p) => p.type }, sortKeys: BY_NAME_AND_TIME };

const profileOf = (req: SenlinRequest) => findIn(req.env.store.profiles, req.token.projectId, req.params.profile_id, "profile");
const policyOf = (req: SenlinRequest) => findIn(req.env.store.policies, req.token.projectId, req.params.policy_id, "policy");

function createProfile(req: SenlinRequest): SenlinReply {
  const body = parseWith(profileBody, wrappedBody(req, "profile"));
  const profile: ProfileRecord = {
    ...ownerOf(req),
    id: randomUUID(),
    name: body.name,
    type: typeOf(body.spec, "profile_type", Object.keys(PROFILE_TYPES)),
    spec: body.spec,
    metadata: body.metadata ?? {},
    createdAtMs: req.nowMs,
    updatedAtMs: null,
  };
  req.env.store.profiles.insert(profile);
  return { status: 201, body: { profile: renderProfile(profile) } };
}

function deleteProfile(req: SenlinRequest): SenlinReply {
  const profile = profileOf(req);
  const { store } = req.env;
  const inUse = store.clusters.list(undefined, "1 = 1").some((c) => c.profileId === profile.id) || store.nodes.list(undefined).some((n) => n.profileId === profile.id);
  if (inUse) throw new SenlinError("ResourceInUse", `The profile '${req.params.profile_id}' cannot be deleted: still referenced by some clusters and/or nodes.`);
  store.profiles.delete(profile.id);
  return { status: 204 };
}

/** `PATCH /v1/profiles/{id}`: name and metadata only; a spec never changes. */
function updateProfile(req: SenlinRequest): SenlinReply {
  const profile = profileOf(req);
  const body = parseWith(profileUpdate, wrappedBody(req, "profile"));
  const name = body.name !== undefined && body.name !== profile.name ? body.name : undefined;
  const metadata = body.metadata !== undefined && JSON.stringify(body.metadata) !== JSON.stringify(profile.metadata) ? body.metadata : undefined;
  if (name === undefined && metadata === undefined) throw badRequest("No property needs an update.");
  const updated = req.env.store.profiles.update(profile.id, (p) => ({ ...p, name: name ?? p.name, metadata: metadata ?? p.metadata, updatedAtMs: req.nowMs }))!;
  return { status: 200, body: { profile: renderProfile(updated) } };
}

/** `PATCH /v1/policies/{id}`: the name only. */
function updatePolicy(req: SenlinRequest): SenlinReply {
  const policy = policyOf(req);
  const { name } = parseWith(policyUpdate, wrappedBody(req, "policy"));
  if (name === undefined || name === policy.name) throw badRequest("No property needs an update.");
  const updated = req.env.store.policies.update(policy.id, (p) => ({ ...p, name, updatedAtMs: req.nowMs }))!;
  return { status: 200, body: { policy: renderPolicy(updated) } };
}

function createPolicy(req: SenlinRequest): SenlinReply {
  const body = parseWith(policyBody, wrappedBody(req, "policy"));
  const policy: PolicyRecord = {
    ...ownerOf(req),
    id: randomUUID(),
    name: body.name,
    type: typeOf(body.spec, "policy_type", POLICY_TYPES),
    spec: body.spec,
    data: {},
    createdAtMs: req.nowMs,
    updatedAtMs: null,
  };
  req.env.store.policies.insert(policy);
  return { status: 201, body: { policy: renderPolicy(policy) } };
}

function deletePolicy(req: SenlinRequest): SenlinReply {
  const policy = policyOf(req);
  if (req.env.store.clustersOfPolicy(policy.id).length > 0) {
    throw new SenlinError("ResourceInUse", `The policy '${req.params.policy_id}' cannot be deleted: still attached to some clusters.`);
  }
  req.env.store.policies.delete(policy.id);
  return { status: 204 };
}

/** Profile and policy handlers by operation name. */
export const CATALOG_HANDLERS = {
  ListProfiles: (req: SenlinRequest): SenlinReply => {
    const project = isGlobalListing(req) ? undefined : req.token.projectId;
    const profiles = applyListQuery(req, req.env.store.profiles.list(project), PROFILE_LIST);
    return { status: 200, body: { profiles: profiles.map(renderProfile) } };
  },
  CreateProfile: createProfile,
  GetProfile: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { profile: renderProfile(profileOf(req)) } }),
  UpdateProfile: updateProfile,
  DeleteProfile: deleteProfile,
  ListPolicies: (req: SenlinRequest): SenlinReply => {
    const project = isGlobalListing(req) ? undefined : req.token.projectId;
    const policies = applyListQuery(req, req.env.store.policies.list(project), POLICY_LIST);
    return { status: 200, body: { policies: policies.map(renderPolicy) } };
  },
  CreatePolicy: createPolicy,
  GetPolicy: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { policy: renderPolicy(policyOf(req)) } }),
  UpdatePolicy: updatePolicy,
  DeletePolicy: deletePolicy,
} as const;
