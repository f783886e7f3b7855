import { ACTION_HANDLERS } from "./action-routes";
import { ADOPT_HANDLERS } from "./adopt-routes";
import { BINDING_HANDLERS } from "./binding-routes";
import { CATALOG_HANDLERS } from "./catalog-routes";
import { actionOperation, CLUSTER_ACTIONS, clusterAction, UNKNOWN_ACTION_OPERATION } from "./cluster-actions";
import { CLUSTER_HANDLERS } from "./cluster-routes";
import type { SenlinReply, SenlinRequest } from "./context";
import { INFO_HANDLERS } from "./info-routes";
import { RECEIVER_HANDLERS } from "./receiver-routes";
import { NODE_ACTION_HANDLERS, NODE_ACTION_OPERATIONS, nodeActionOperation } from "./node-actions";
import { NODE_HANDLERS } from "./node-routes";
import { DISCOVERY_OPERATIONS } from "./version-routes";

/** One route of Senlin's v1 router. */
export interface SenlinRoute {
  method: string;
  /** Path with `:param` segments, e.g. `/v1/clusters/:cluster_id`. */
  path: string;
  /** The audited operation name; the actions route derives it from the body. */
  operation: string | ((body: unknown) => string);
  handle(req: SenlinRequest): SenlinReply;
  /** Served without a token (webhook triggers: the URL is the credential). */
  public?: boolean;
}

const HANDLERS = {
  ...CLUSTER_HANDLERS,
  ...BINDING_HANDLERS,
  ...CATALOG_HANDLERS,
  ...NODE_HANDLERS,
  ...NODE_ACTION_HANDLERS,
  ...ACTION_HANDLERS,
  ...INFO_HANDLERS,
  ...RECEIVER_HANDLERS,
  ...ADOPT_HANDLERS,
};

type Named = keyof typeof HANDLERS;

const route = (method: string, path: string, operation: Named): SenlinRoute => ({ method, path, operation, handle: HANDLERS[operation] });

/** Every route, as router.py maps them (with the real server's status codes, see each handler). */
export const SENLIN_ROUTES: readonly SenlinRoute[] = [
  route("GET", "/v1/build-info", "GetBuildInfo"),
  route("GET", "/v1/profile-types", "ListProfileTypes"),
  route("GET", "/v1/profile-types/:type_name", "GetProfileType"),
  route("GET", "/v1/profile-types/:type_name/ops", "ListProfileTypeOperations"),
  route("GET", "/v1/policy-types", "ListPolicyTypes"),
  route("GET", "/v1/policy-types/:type_name", "GetPolicyType"),
  route("POST", "/v1/profiles/validate", "ValidateProfile"),
  route("POST", "/v1/policies/validate", "ValidatePolicy"),
  route("GET", "/v1/receivers", "ListReceivers"),
  route("POST", "/v1/receivers", "CreateReceiver"),
  route("GET", "/v1/receivers/:receiver_id", "GetReceiver"),
  route("PATCH", "/v1/receivers/:receiver_id", "UpdateReceiver"),
  route("DELETE", "/v1/receivers/:receiver_id", "DeleteReceiver"),
  route("POST", "/v1/receivers/:receiver_id/notify", "NotifyReceiver"),
  { ...route("POST", "/v1/webhooks/:webhook_id/trigger", "TriggerWebhook"), public: true },
  route("GET", "/v1/events", "ListEvents"),
  route("GET", "/v1/events/:event_id", "GetEvent"),
  route("GET", "/v1/clusters", "ListClusters"),
  route("POST", "/v1/clusters", "CreateCluster"),
  route("GET", "/v1/clusters/:cluster_id", "GetCluster"),
  route("PATCH", "/v1/clusters/:cluster_id", "UpdateCluster"),
  route("DELETE", "/v1/clusters/:cluster_id", "DeleteCluster"),
  { method: "POST", path: "/v1/clusters/:cluster_id/actions", operation: actionOperation, handle: clusterAction },
  route("GET", "/v1/clusters/:cluster_id/attrs/:path", "CollectClusterAttrs"),
  route("POST", "/v1/clusters/:cluster_id/ops", "PerformClusterOperation"),
  route("GET", "/v1/clusters/:cluster_id/policies", "ListClusterPolicies"),
  route("GET", "/v1/clusters/:cluster_id/policies/:policy_id", "GetClusterPolicy"),
  route("GET", "/v1/profiles", "ListProfiles"),
  route("POST", "/v1/profiles", "CreateProfile"),
  route("GET", "/v1/profiles/:profile_id", "GetProfile"),
  route("PATCH", "/v1/profiles/:profile_id", "UpdateProfile"),
  route("DELETE", "/v1/profiles/:profile_id", "DeleteProfile"),
  route("GET", "/v1/policies", "ListPolicies"),
  route("POST", "/v1/policies", "CreatePolicy"),
  route("GET", "/v1/policies/:policy_id", "GetPolicy"),
  route("PATCH", "/v1/policies/:policy_id", "UpdatePolicy"),
  route("DELETE", "/v1/policies/:policy_id", "DeletePolicy"),
  route("GET", "/v1/services", "ListServices"),
  route("POST", "/v1/nodes/adopt", "AdoptNode"),
  route("POST", "/v1/nodes/adopt-preview", "PreviewNodeAdoption"),
  route("GET", "/v1/nodes", "ListNodes"),
  route("POST", "/v1/nodes", "CreateNode"),
  route("GET", "/v1/nodes/:node_id", "GetNode"),
  route("PATCH", "/v1/nodes/:node_id", "UpdateNode"),
  route("DELETE", "/v1/nodes/:node_id", "DeleteNode"),
  { method: "POST", path: "/v1/nodes/:node_id/actions", operation: nodeActionOperation, handle: NODE_ACTION_HANDLERS.NodeAction },
  route("POST", "/v1/nodes/:node_id/ops", "PerformNodeOperation"),
  route("GET", "/v1/actions", "ListActions"),
  route("POST", "/v1/actions", "CreateAction"),
  route("GET", "/v1/actions/:action_id", "GetAction"),
  route("PATCH", "/v1/actions/:action_id", "UpdateAction"),
];

/** Every operation name Senlin calls are audited under, for faults to name. */
export const SENLIN_OPERATIONS: readonly string[] = [
  ...Object.keys(HANDLERS),
  ...Object.values(CLUSTER_ACTIONS).map((a) => a.operation),
  UNKNOWN_ACTION_OPERATION,
  ...DISCOVERY_OPERATIONS,
  ...NODE_ACTION_OPERATIONS,
];

/** Path parameters of `path` against a route pattern, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (got[i] === "") return undefined;
      params[want[i].slice(1)] = decodeURIComponent(got[i]);
    } else if (want[i] !== got[i]) {
      return undefined;
    }
  }
  return params;
}
