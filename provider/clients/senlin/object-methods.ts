import type { RestCallOptions } from "../shared/rest-caller";
import { defined, fromNode, fromPolicy, fromProfile, fromReceiver, toListQuery, toNodeCreate, toReceiverCreate, type Wire } from "./mapping";
import { actionIdOf, MICROVERSIONS, type SenlinTransport } from "./transport";
import type { Accepted, DeleteResult, InstalledType, ListQuery, Node, NodeSpec, Policy, Profile, Receiver, ReceiverSpec, ReceiverUpdate, TypedSpec } from "./types";

const q = (s: string) => JSON.stringify(s);

/** Profile, policy, node and receiver calls. `identity` is a name, short id or UUID. */
export interface SenlinObjectMethods {
  /** GET /v1/profiles. */
  listProfiles(query?: ListQuery, options?: RestCallOptions): Promise<Profile[]>;
  /** GET /v1/profiles/{id}. */
  getProfile(identity: string, options?: RestCallOptions): Promise<Profile>;
  /** POST /v1/profiles (201). Not retried. */
  createProfile(name: string, spec: TypedSpec, metadata?: Record<string, unknown>, options?: RestCallOptions): Promise<Profile>;
  /** PATCH /v1/profiles/{id} (200): name and metadata; a spec never changes. Not retried. */
  updateProfile(identity: string, update: { name?: string; metadata?: Record<string, unknown> }, options?: RestCallOptions): Promise<Profile>;
  /** DELETE /v1/profiles/{id} (204). NotFound on a retry counts as success. */
  deleteProfile(identity: string, options?: RestCallOptions): Promise<DeleteResult>;
  /** GET /v1/policies. */
  listPolicies(query?: ListQuery, options?: RestCallOptions): Promise<Policy[]>;
  /** GET /v1/policies/{id}. */
  getPolicy(identity: string, options?: RestCallOptions): Promise<Policy>;
  /** POST /v1/policies (201). Not retried. */
  createPolicy(name: string, spec: TypedSpec, options?: RestCallOptions): Promise<Policy>;
  /** PATCH /v1/policies/{id} (200): the name only. Not retried. */
  updatePolicy(identity: string, update: { name: string }, options?: RestCallOptions): Promise<Policy>;
  /** DELETE /v1/policies/{id} (204); Conflict while attached. NotFound on a retry counts as success. */
  deletePolicy(identity: string, options?: RestCallOptions): Promise<DeleteResult>;
  /** GET /v1/nodes; filters include `cluster_id`, `name`, `status`. */
  listNodes(query?: ListQuery, options?: RestCallOptions): Promise<Node[]>;
  /** GET /v1/nodes/{id}. */
  getNode(identity: string, options?: RestCallOptions): Promise<Node>;
  /** POST /v1/nodes (202). Not retried. */
  createNode(spec: NodeSpec, options?: RestCallOptions): Promise<Accepted<Node>>;
  /** DELETE /v1/nodes/{id} (202). NotFound on a retry counts as success. */
  deleteNode(identity: string, options?: RestCallOptions): Promise<DeleteResult>;
  /** GET /v1/receivers; filters include `name`, `type`, `cluster_id` (the UUID), `action`. */
  listReceivers(query?: ListQuery, options?: RestCallOptions): Promise<Receiver[]>;
  /** GET /v1/receivers/{id}. */
  getReceiver(identity: string, options?: RestCallOptions): Promise<Receiver>;
  /** POST /v1/receivers (201). Not retried. */
  createReceiver(spec: ReceiverSpec, options?: RestCallOptions): Promise<Receiver>;
  /** PATCH /v1/receivers/{id} (200): name, action and params. Not retried. */
  updateReceiver(identity: string, update: ReceiverUpdate, options?: RestCallOptions): Promise<Receiver>;
  /** DELETE /v1/receivers/{id} (204). NotFound on a retry counts as success. */
  deleteReceiver(identity: string, options?: RestCallOptions): Promise<DeleteResult>;
  /** GET /v1/profile-types: the profile types the server has installed. */
  listProfileTypes(options?: RestCallOptions): Promise<InstalledType[]>;
  /** GET /v1/policy-types: the policy types the server has installed. */
  listPolicyTypes(options?: RestCallOptions): Promise<InstalledType[]>;
}

type Kind = "profile" | "policy" | "node" | "receiver";

const COLLECTIONS: Readonly<Record<Kind, { path: string; noun: string; plural: string }>> = {
  profile: { path: "/profiles", noun: "Profile", plural: "profiles" },
  policy: { path: "/policies", noun: "Policy", plural: "policies" },
  node: { path: "/nodes", noun: "Node", plural: "nodes" },
  receiver: { path: "/receivers", noun: "Receiver", plural: "receivers" },
};

/** Builds the profile, policy and node calls over a transport. */
export function objectMethods(t: SenlinTransport): SenlinObjectMethods {
  const v = MICROVERSIONS.base;
  const list = async (kind: Kind, query: ListQuery | undefined, o?: RestCallOptions): Promise<Wire[]> => {
    const { path, noun, plural } = COLLECTIONS[kind];
    const response = await t.call<Record<string, Wire[] | undefined>>("read", `List${noun === "Policy" ? "Policies" : `${noun}s`}`, { method: "GET", path, query: toListQuery(query) }, v, o);
    return response.body?.[plural] ?? [];
  };
  const get = async (kind: Kind, identity: string, o?: RestCallOptions): Promise<Wire> => {
    const { path, noun } = COLLECTIONS[kind];
    const response = await t.call<Record<string, Wire>>("read", `Get${noun} ${kind} ${q(identity)}`, { method: "GET", path: `${path}/${encodeURIComponent(identity)}` }, v, o);
    return response.body[kind];
  };
  const remove = async (kind: Kind, identity: string, o?: RestCallOptions): Promise<DeleteResult> => {
    const { path, noun } = COLLECTIONS[kind];
    const response = await t.call("delete", `Delete${noun} ${kind} ${q(identity)}`, { method: "DELETE", path: `${path}/${encodeURIComponent(identity)}` }, v, o);
    if (response.status === 404) return { actionId: "", notFoundOnRetry: true };
    return { actionId: response.headers.get("location") ? actionIdOf(response) : "", notFoundOnRetry: false };
  };
  const update = async (kind: Kind, identity: string, body: Wire, o?: RestCallOptions): Promise<Wire> => {
    const { path, noun } = COLLECTIONS[kind];
    const request = { method: "PATCH" as const, path: `${path}/${encodeURIComponent(identity)}`, body: { [kind]: body } };
    return (await t.call<Record<string, Wire>>("write", `Update${noun} ${kind} ${q(identity)}`, request, v, o)).body[kind];
  };
  const create = async (kind: Kind, name: string, body: Wire, o?: RestCallOptions) => {
    const { path, noun } = COLLECTIONS[kind];
    return t.call<Record<string, Wire>>("write", `Create${noun} ${kind} ${q(name)}`, { method: "POST", path, body: { [kind]: body } }, v, o);
  };
  return {
    listProfiles: async (query, o) => (await list("profile", query, o)).map(fromProfile),
    getProfile: async (identity, o) => fromProfile(await get("profile", identity, o)),
    createProfile: async (name, spec, metadata, o) => fromProfile((await create("profile", name, defined({ name, spec, metadata }), o)).body.profile),
    updateProfile: async (identity, changes, o) => fromProfile(await update("profile", identity, defined(changes), o)),
    deleteProfile: (identity, o) => remove("profile", identity, o),
    listPolicies: async (query, o) => (await list("policy", query, o)).map(fromPolicy),
    getPolicy: async (identity, o) => fromPolicy(await get("policy", identity, o)),
    createPolicy: async (name, spec, o) => fromPolicy((await create("policy", name, { name, spec }, o)).body.policy),
    updatePolicy: async (identity, changes, o) => fromPolicy(await update("policy", identity, { name: changes.name }, o)),
    deletePolicy: (identity, o) => remove("policy", identity, o),
    listNodes: async (query, o) => (await list("node", query, o)).map(fromNode),
    getNode: async (identity, o) => fromNode(await get("node", identity, o)),
    createNode: async (spec, o) => {
      const response = await create("node", spec.name, toNodeCreate(spec), o);
      return { value: fromNode(response.body.node), actionId: actionIdOf(response) };
    },
    deleteNode: (identity, o) => remove("node", identity, o),
    listReceivers: async (query, o) => (await list("receiver", query, o)).map(fromReceiver),
    getReceiver: async (identity, o) => fromReceiver(await get("receiver", identity, o)),
    createReceiver: async (spec, o) => fromReceiver((await create("receiver", spec.name, toReceiverCreate(spec), o)).body.receiver),
    updateReceiver: async (identity, changes, o) => fromReceiver(await update("receiver", identity, defined({ ...changes }), o)),
    deleteReceiver: (identity, o) => remove("receiver", identity, o),
    listProfileTypes: (o) => types("ListProfileTypes", "/profile-types", "profile_types", o),
    listPolicyTypes: (o) => types("ListPolicyTypes", "/policy-types", "policy_types", o),
  };

  // Asked at the base microversion, every Senlin answers each type's full name (`os.nova.server-1.0`);
  // from 1.5 the name and version come apart, with a support status this client does not need.
  async function types(operation: string, path: string, key: string, o?: RestCallOptions): Promise<InstalledType[]> {
    const response = await t.call<Record<string, Wire[] | undefined>>("read", operation, { method: "GET", path }, v, o);
    return (response.body?.[key] ?? []).map((entry) => installedType(String(entry.name ?? "")));
  }
}

/** `os.nova.server-1.0` as its full name, the spec's `type` and its `version` (split at the last dash). */
function installedType(full: string): InstalledType {
  const at = full.lastIndexOf("-");
  return at > 0 ? { name: full, type: full.slice(0, at), version: full.slice(at + 1) } : { name: full, type: full, version: "" };
}
