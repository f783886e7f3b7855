import { z } from "zod";
import { POLICY_TYPES, PROFILE_TYPES } from "./catalog-routes";
import type { SenlinReply, SenlinRequest } from "./context";
import { badRequest, notFound } from "./errors";
import { applyListQuery, isGlobalListing, type ListSpec } from "./list-query";
import { hasFeature, requireMicroversion } from "./microversion";
import type { EventRecord } from "./records";
import { senlinTime } from "./render";
import { objectField, parseWith } from "./validation";

/** `support_status` of every stock type: supported since Senlin's first release with it. */
const SUPPORTED = (version: string) => ({ [version]: [{ status: "SUPPORTED", since: "2016.04" }] });

/** `<name>-<version>` split at the last dash. */
function splitType(full: string): { name: string; version: string } {
  const at = full.lastIndexOf("-");
  return { name: full.slice(0, at), version: full.slice(at + 1) };
}

/** A type list entry: only the full name before 1.5, name, version and support status from 1.5. */
function typeEntry(req: SenlinRequest, full: string): Record<string, unknown> {
  if (!hasFeature(req.version, "typeSupportStatus")) return { name: full };
  const { name, version } = splitType(full);
  return { name, version, support_status: SUPPORTED(version) };
}

/**
 * One type's detail. The schema is a reduced one (the properties' names, no per-property
 * constraints): the stock plugins' full schemas are the engine's, not the API's.
 */
function typeDetail(req: SenlinRequest, full: string): Record<string, unknown> {
  const { version } = splitType(full);
  return {
    name: full,
    schema: {},
    ...(hasFeature(req.version, "typeSupportStatus") ? { support_status: SUPPORTED(version) } : {}),
  };
}

function typeNamed(installed: readonly string[], raw: string, kind: string): string {
  if (!installed.includes(raw)) throw notFound(kind, raw);
  return raw;
}

function renderEvent(e: EventRecord): Record<string, unknown> {
  return {
    action: e.action,
    cluster_id: e.clusterId,
    id: e.id,
    level: e.phase === "error" ? "ERROR" : "INFO",
    meta_data: {},
    oid: e.oid,
    oname: e.oname,
    otype: e.otype,
    project: e.project,
    status: e.phase,
    status_reason: e.reason,
    timestamp: senlinTime(e.atMs),
    user: e.user,
  };
}

const EVENT_LIST: ListSpec<EventRecord> = {
  filters: {
    oname: (e) => e.oname,
    otype: (e) => e.otype,
    oid: (e) => e.oid,
    cluster_id: (e) => e.clusterId,
    action: (e) => e.action,
    level: (e) => (e.phase === "error" ? "ERROR" : "INFO"),
  },
  sortKeys: { timestamp: (e) => e.atMs, level: (e) => e.phase, otype: (e) => e.otype, oname: (e) => e.oname, action: (e) => e.action },
};

/** `GET /v1/events/{id}`: by id, else by short id (an id prefix), within the caller's project. */
function getEvent(req: SenlinRequest): SenlinReply {
  const identity = req.params.event_id;
  const { store } = req.env;
  const exact = store.eventById(identity);
  const matches = exact?.project === req.token.projectId ? [exact] : store.eventsByIdPrefix(req.token.projectId, identity);
  if (matches.length !== 1) throw matches.length > 1 ? badRequest(`Multiple results found matching the query criteria '${identity}'. Please be more specific.`) : notFound("event", identity);
  return { status: 200, body: { event: renderEvent(matches[0]) } };
}

const validateBody = z.strictObject({ spec: z.object({ type: z.string().min(1), version: z.union([z.string(), z.number()]), properties: objectField.optional() }).passthrough() });

/** `POST /v1/{profiles,policies}/validate` (1.2): checks a spec and answers it as an unsaved object. */
function validator(key: "profile" | "policy", installed: () => readonly string[]) {
  return (req: SenlinRequest): SenlinReply => {
    requireMicroversion(req.version, "validate");
    const outer = req.body as Record<string, unknown> | undefined;
    const inner = outer && typeof outer === "object" ? outer[key] : undefined;
    if (typeof inner !== "object" || inner === null) throw badRequest(`Malformed request data, missing '${key}' key in request body.`);
    const { spec } = parseWith(validateBody, inner);
    const version = typeof spec.version === "number" ? spec.version.toFixed(1) : spec.version;
    const type = `${spec.type}-${version}`;
    if (!installed().includes(type)) throw notFound(`${key}_type`, type);
    const shown = {
      created_at: null,
      domain: null,
      id: null,
      // A profile has metadata; a policy has none.
      ...(key === "profile" ? { metadata: null } : {}),
      name: "validated_" + key,
      project: req.token.projectId,
      spec,
      type,
      updated_at: null,
      user: req.token.userId,
      ...(key === "policy" ? { data: {} } : {}),
    };
    return { status: 200, body: { [key]: shown } };
  };
}

/** Build information, type catalogues, events and spec validation, by operation name. */
export const INFO_HANDLERS = {
  GetBuildInfo: (): SenlinReply => ({ status: 200, body: { build_info: { api: { revision: "1.0" }, engine: { revision: "1.0" } } } }),
  ListProfileTypes: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { profile_types: Object.keys(PROFILE_TYPES).map((t) => typeEntry(req, t)) } }),
  GetProfileType: (req: SenlinRequest): SenlinReply => ({
    status: 200,
    body: { profile_type: typeDetail(req, typeNamed(Object.keys(PROFILE_TYPES), req.params.type_name, "profile_type")) },
  }),
  ListProfileTypeOperations: (req: SenlinRequest): SenlinReply => {
    requireMicroversion(req.version, "clusterOps");
    const type = typeNamed(Object.keys(PROFILE_TYPES), req.params.type_name, "profile_type");
    return { status: 200, body: { operations: Object.fromEntries(PROFILE_TYPES[type].map((op) => [op, { description: op, parameters: {} }])) } };
  },
  ListPolicyTypes: (req: SenlinRequest): SenlinReply => ({ status: 200, body: { policy_types: POLICY_TYPES.map((t) => typeEntry(req, t)) } }),
  GetPolicyType: (req: SenlinRequest): SenlinReply => ({
    status: 200,
    body: { policy_type: typeDetail(req, typeNamed(POLICY_TYPES, req.params.type_name, "policy_type")) },
  }),
  ListEvents: (req: SenlinRequest): SenlinReply => {
    const project = isGlobalListing(req) ? undefined : req.token.projectId;
    return { status: 200, body: { events: applyListQuery(req, req.env.store.events(project), EVENT_LIST).map(renderEvent) } };
  },
  GetEvent: getEvent,
  ValidateProfile: validator("profile", () => Object.keys(PROFILE_TYPES)),
  ValidatePolicy: validator("policy", () => POLICY_TYPES),
} as const;
