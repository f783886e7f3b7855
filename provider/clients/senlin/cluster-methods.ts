import type { RestCallOptions } from "../shared/rest-caller";
import { defined, fromAction, fromCluster, fromClusterPolicy, toClusterCreate, toClusterUpdate, toListQuery, toResize, type Wire } from "./mapping";
import { actionIdOf, MICROVERSIONS, newerVersion, type SenlinTransport } from "./transport";
import type { Accepted, Action, Cluster, ClusterAttribute, ClusterPolicy, ClusterSpec, ClusterUpdate, DeleteResult, ListQuery, ResizeParams } from "./types";

const q = (s: string) => JSON.stringify(s);
const path = (identity: string) => `/clusters/${encodeURIComponent(identity)}`;

/** Cluster calls. `identity` is a cluster's name, short id or UUID. Actions return the action id. */
export interface SenlinClusterMethods {
  /** GET /v1/clusters. */
  listClusters(query?: ListQuery, options?: RestCallOptions): Promise<Cluster[]>;
  /** GET /v1/clusters/{id}. Throws NotFound when the cluster is gone. */
  getCluster(identity: string, options?: RestCallOptions): Promise<Cluster>;
  /** POST /v1/clusters (202). Not retried. */
  createCluster(spec: ClusterSpec, options?: RestCallOptions): Promise<Accepted<Cluster>>;
  /** PATCH /v1/clusters/{id} (202). Not retried. */
  updateCluster(identity: string, update: ClusterUpdate, options?: RestCallOptions): Promise<Accepted<Cluster>>;
  /** DELETE /v1/clusters/{id} (202); `force` needs 1.8. NotFound on a retry counts as success. */
  deleteCluster(identity: string, deleteOptions?: { force?: boolean }, options?: RestCallOptions): Promise<DeleteResult>;
  /** The `resize` action. */
  resizeCluster(identity: string, params: ResizeParams, options?: RestCallOptions): Promise<string>;
  /** The `scale_out` action; by one (or the scaling policy's step) when `count` is absent. */
  scaleOut(identity: string, count?: number, options?: RestCallOptions): Promise<string>;
  /** The `scale_in` action. */
  scaleIn(identity: string, count?: number, options?: RestCallOptions): Promise<string>;
  /** The `add_nodes` action: orphan nodes join. */
  addNodes(identity: string, nodes: string[], options?: RestCallOptions): Promise<string>;
  /** The `del_nodes` action; `destroyAfterDeletion` needs 1.4. */
  delNodes(identity: string, nodes: string[], delOptions?: { destroyAfterDeletion?: boolean }, options?: RestCallOptions): Promise<string>;
  /** The `replace_nodes` action (1.3): old node -> new node. */
  replaceNodes(identity: string, replacements: Record<string, string>, options?: RestCallOptions): Promise<string>;
  /** The `policy_attach` action (the real server's key, not the api-ref's `attach_policy`). */
  attachPolicy(identity: string, policy: string, enabled?: boolean, options?: RestCallOptions): Promise<string>;
  /** The `policy_detach` action. */
  detachPolicy(identity: string, policy: string, options?: RestCallOptions): Promise<string>;
  /** The `policy_update` action: enables or disables an attached policy. */
  updateClusterPolicy(identity: string, policy: string, enabled: boolean, options?: RestCallOptions): Promise<string>;
  /** GET /v1/clusters/{id}/policies: the cluster's policy bindings. */
  listClusterPolicies(identity: string, query?: ListQuery, options?: RestCallOptions): Promise<ClusterPolicy[]>;
  /** GET /v1/clusters/{id}/policies/{policy}: NotFound when the policy is not attached. */
  getClusterPolicy(identity: string, policy: string, options?: RestCallOptions): Promise<ClusterPolicy>;
  /** The `check` action. */
  checkCluster(identity: string, params?: Record<string, unknown>, options?: RestCallOptions): Promise<string>;
  /** The `recover` action; `check` needs 1.6, `check_capacity` 1.7. */
  recoverCluster(identity: string, params?: RecoverParams, options?: RestCallOptions): Promise<string>;
  /** GET /v1/clusters/{id}/attrs/{path} (1.2). */
  collectAttributes(identity: string, attributePath: string, options?: RestCallOptions): Promise<ClusterAttribute[]>;
  /** POST /v1/clusters/{id}/ops (1.4): a profile operation on the matching members. */
  performOperation(identity: string, operation: string, spec?: { filters?: Record<string, string>; params?: Record<string, unknown> }, options?: RestCallOptions): Promise<string>;
  /** GET /v1/actions/{id}. */
  getAction(id: string, options?: RestCallOptions): Promise<Action>;
  /** PATCH /v1/actions/{id} (1.12): cancels an unfinished action. Not retried. */
  cancelAction(id: string, options?: RestCallOptions): Promise<void>;
  /** GET /v1/actions; a `cluster_id` filter needs 1.14. */
  listActions(query?: ListQuery, options?: RestCallOptions): Promise<Action[]>;
}

/** Parameters of `recover`. */
export interface RecoverParams {
  /** REBOOT, REBUILD or RECREATE. @default the health policy's or the profile's */
  operation?: string;
  /** @default {} */
  operationParams?: Record<string, unknown>;
  /** Check the nodes first (1.6). @default unset */
  check?: boolean;
  /** Bring the node count back to desired_capacity (1.7). @default unset */
  checkCapacity?: boolean;
}

type ActionMethodName =
  | "resizeCluster"
  | "scaleOut"
  | "scaleIn"
  | "addNodes"
  | "delNodes"
  | "replaceNodes"
  | "attachPolicy"
  | "detachPolicy"
  | "updateClusterPolicy"
  | "checkCluster"
  | "recoverCluster"
  | "performOperation";
type ReadMethodName = "listClusterPolicies" | "getClusterPolicy" | "collectAttributes" | "getAction" | "cancelAction" | "listActions";

/** Create, read, update and delete of clusters. */
function crudMethods(t: SenlinTransport): Omit<SenlinClusterMethods, ActionMethodName | ReadMethodName> {
  return {
    listClusters: async (query, o) => {
      const response = await t.call<{ clusters?: Wire[] }>("read", "ListClusters", { method: "GET", path: "/clusters", query: toListQuery(query) }, MICROVERSIONS.base, o);
      return (response.body?.clusters ?? []).map(fromCluster);
    },
    getCluster: async (identity, o) => {
      const response = await t.call<{ cluster: Wire }>("read", `GetCluster cluster ${q(identity)}`, { method: "GET", path: path(identity) }, MICROVERSIONS.base, o);
      return fromCluster(response.body.cluster);
    },
    createCluster: async (spec, o) => {
      const request = { method: "POST" as const, path: "/clusters", body: { cluster: toClusterCreate(spec) } };
      const response = await t.call<{ cluster: Wire }>("write", `CreateCluster cluster ${q(spec.name)}`, request, MICROVERSIONS.base, o);
      return { value: fromCluster(response.body.cluster), actionId: actionIdOf(response) };
    },
    updateCluster: async (identity, update, o) => {
      const version = update.profileOnly === undefined ? MICROVERSIONS.base : MICROVERSIONS.profileOnly;
      const request = { method: "PATCH" as const, path: path(identity), body: { cluster: toClusterUpdate(update) } };
      const response = await t.call<{ cluster: Wire }>("write", `UpdateCluster cluster ${q(identity)}`, request, version, o);
      return { value: fromCluster(response.body.cluster), actionId: actionIdOf(response) };
    },
    deleteCluster: async (identity, deleteOptions = {}, o) => {
      const force = deleteOptions.force;
      const version = force === undefined ? MICROVERSIONS.base : MICROVERSIONS.deleteForce;
      const request = { method: "DELETE" as const, path: path(identity), query: { force } };
      const response = await t.call("delete", `DeleteCluster cluster ${q(identity)}`, request, version, o);
      return response.status === 404 ? { actionId: "", notFoundOnRetry: true } : { actionId: actionIdOf(response), notFoundOnRetry: false };
    },
  };
}

/** Actions on a cluster: each answers the action id. Never retried: a retry would conflict with the first. */
function actionMethods(t: SenlinTransport): Pick<SenlinClusterMethods, ActionMethodName> {
  const action = async (identity: string, name: string, operation: string, params: Wire, version: string = MICROVERSIONS.base, o?: RestCallOptions) => {
    const response = await t.call("write", `${operation} cluster ${q(identity)}`, { method: "POST", path: `${path(identity)}/actions`, body: { [name]: params } }, version, o);
    return actionIdOf(response);
  };  return {
    resizeCluster: (identity, params, o) => action(identity, "resize", "ResizeCluster", toResize(params), MICROVERSIONS.base, o),
    scaleOut: (identity, count, o) => action(identity, "scale_out", "ScaleOutCluster", defined({ count }), MICROVERSIONS.base, o),
    scaleIn: (identity, count, o) => action(identity, "scale_in", "ScaleInCluster", defined({ count }), MICROVERSIONS.base, o),
    addNodes: (identity, nodes, o) => action(identity, "add_nodes", "AddNodes", { nodes }, MICROVERSIONS.base, o),
    delNodes: (identity, nodes, delOptions = {}, o) => {
      const destroy = delOptions.destroyAfterDeletion;
      const version = destroy === undefined ? MICROVERSIONS.base : MICROVERSIONS.destroyAfterDeletion;
      return action(identity, "del_nodes", "DelNodes", defined({ nodes, destroy_after_deletion: destroy }), version, o);
    },
    replaceNodes: (identity, replacements, o) => action(identity, "replace_nodes", "ReplaceNodes", { nodes: replacements }, MICROVERSIONS.replaceNodes, o),
    attachPolicy: (identity, policy, enabled, o) =>
      action(identity, "policy_attach", `AttachPolicy ${q(policy)} to`, defined({ policy_id: policy, enabled }), MICROVERSIONS.base, o),
    detachPolicy: (identity, policy, o) => action(identity, "policy_detach", `DetachPolicy ${q(policy)} from`, { policy_id: policy }, MICROVERSIONS.base, o),
    updateClusterPolicy: (identity, policy, enabled, o) =>
      action(identity, "policy_update", `UpdateClusterPolicy ${q(policy)} on`, { policy_id: policy, enabled }, MICROVERSIONS.base, o),
    checkCluster: (identity, params = {}, o) => action(identity, "check", "CheckCluster", params, MICROVERSIONS.base, o),
    recoverCluster: (identity, params = {}, o) => {
      let version: string = MICROVERSIONS.base;
      if (params.check !== undefined) version = newerVersion(version, MICROVERSIONS.recoverCheck);
      if (params.checkCapacity !== undefined) version = newerVersion(version, MICROVERSIONS.recoverCheckCapacity);
      const wire = defined({ operation: params.operation, operation_params: params.operationParams, check: params.check, check_capacity: params.checkCapacity });
      return action(identity, "recover", "RecoverCluster", wire, version, o);
    },
    performOperation: async (identity, operation, spec = {}, o) => {
      const request = { method: "POST" as const, path: `${path(identity)}/ops`, body: { [operation]: defined({ filters: spec.filters, params: spec.params }) } };
      const response = await t.call("write", `PerformOperation ${q(operation)} on cluster ${q(identity)}`, request, MICROVERSIONS.clusterOps, o);
      return actionIdOf(response);
    },
  };
}

/** Bindings, attributes and actions: reads (retried) and the cancel of an action. */
function readMethods(t: SenlinTransport): Pick<SenlinClusterMethods, ReadMethodName> {
  return {
    listClusterPolicies: async (identity, query, o) => {
      const request = { method: "GET" as const, path: `${path(identity)}/policies`, query: toListQuery(query) };
      const response = await t.call<{ cluster_policies?: Wire[] }>("read", `ListClusterPolicies cluster ${q(identity)}`, request, MICROVERSIONS.base, o);
      return (response.body?.cluster_policies ?? []).map(fromClusterPolicy);
    },
    getClusterPolicy: async (identity, policy, o) => {
      const request = { method: "GET" as const, path: `${path(identity)}/policies/${encodeURIComponent(policy)}` };
      const response = await t.call<{ cluster_policy: Wire }>("read", `GetClusterPolicy ${q(policy)} of cluster ${q(identity)}`, request, MICROVERSIONS.base, o);
      return fromClusterPolicy(response.body.cluster_policy);
    },
    collectAttributes: async (identity, attributePath, o) => {
      const request = { method: "GET" as const, path: `${path(identity)}/attrs/${encodeURIComponent(attributePath)}` };
      const response = await t.call<{ cluster_attributes?: ClusterAttribute[] }>("read", `CollectAttributes ${q(attributePath)} of cluster ${q(identity)}`, request, MICROVERSIONS.collectAttrs, o);
      return (response.body?.cluster_attributes ?? []).map((a) => ({ id: a.id, value: a.value }));
    },
    getAction: async (id, o) => {
      const response = await t.call<{ action: Wire }>("read", `GetAction action ${q(id)}`, { method: "GET", path: `/actions/${encodeURIComponent(id)}` }, MICROVERSIONS.base, o);
      return fromAction(response.body.action);
    },
    cancelAction: async (id, o) => {
      const request = { method: "PATCH" as const, path: `/actions/${encodeURIComponent(id)}`, body: { action: { status: "CANCELLED" } } };
      await t.call("write", `CancelAction action ${q(id)}`, request, MICROVERSIONS.actionCancel, o);
    },
    listActions: async (query = {}, o) => {
      const version = query.filters?.cluster_id === undefined ? MICROVERSIONS.base : MICROVERSIONS.actionClusterIdFilter;
      const response = await t.call<{ actions?: Wire[] }>("read", "ListActions", { method: "GET", path: "/actions", query: toListQuery(query) }, version, o);
      return (response.body?.actions ?? []).map(fromAction);
    },
  };
}

/** Builds the cluster calls over a transport. */
export function clusterMethods(t: SenlinTransport): SenlinClusterMethods {
  return { ...crudMethods(t), ...actionMethods(t), ...readMethods(t) };
}
