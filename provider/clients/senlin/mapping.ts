import type {
  Action,
  ActionStatus,
  Cluster,
  ClusterSpec,
  ClusterPolicy,
  ClusterStatus,
  ClusterUpdate,
  ListQuery,
  Node,
  NodeSpec,
  Policy,
  Profile,
  Receiver,
  ReceiverSpec,
  ReceiverType,
  ResizeParams,
  Stamped,
  TypedSpec,
} from "./types";

/** A JSON object as Senlin sends it. */
export type Wire = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown, fallback = 0): number => (typeof v === "number" ? v : fallback);
const numOrNull = (v: unknown): number | null => (typeof v === "number" ? v : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

/** Drops undefined values, so absent inputs are not sent. */
export function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

function stamped(w: Wire): Stamped {
  return {
    id: str(w.id),
    name: str(w.name),
    user: str(w.user),
    project: str(w.project),
    domain: strOrNull(w.domain),
    createdAt: strOrNull(w.created_at),
    updatedAt: strOrNull(w.updated_at),
  };
}

/** A cluster from its JSON. */
export function fromCluster(w: Wire): Cluster {
  return {
    ...stamped(w),
    profileId: str(w.profile_id),
    profileName: strOrNull(w.profile_name),
    status: str(w.status) as ClusterStatus,
    statusReason: str(w.status_reason),
    minSize: num(w.min_size),
    maxSize: num(w.max_size, -1),
    desiredCapacity: num(w.desired_capacity),
    timeout: num(w.timeout),
    metadata: obj(w.metadata),
    config: obj(w.config),
    data: obj(w.data),
    nodes: strings(w.nodes),
    policies: strings(w.policies),
    initAt: strOrNull(w.init_at),
  };
}

/** A node from its JSON. */
export function fromNode(w: Wire): Node {
  return {
    ...stamped(w),
    profileId: str(w.profile_id),
    profileName: strOrNull(w.profile_name),
    clusterId: str(w.cluster_id),
    index: num(w.index, -1),
    role: str(w.role),
    status: str(w.status),
    statusReason: str(w.status_reason),
    physicalId: strOrNull(w.physical_id),
    metadata: obj(w.metadata),
    data: obj(w.data),
  };
}

/** An action from its JSON. */
export function fromAction(w: Wire): Action {
  return {
    id: str(w.id),
    name: str(w.name),
    action: str(w.action),
    cause: str(w.cause),
    target: str(w.target),
    status: str(w.status) as ActionStatus,
    statusReason: str(w.status_reason),
    inputs: obj(w.inputs),
    outputs: obj(w.outputs),
    startTime: numOrNull(w.start_time),
    endTime: numOrNull(w.end_time),
    timeout: num(w.timeout),
    createdAt: strOrNull(w.created_at),
    updatedAt: strOrNull(w.updated_at),
  };
}

/** A cluster-policy binding from its JSON. */
export function fromClusterPolicy(w: Wire): ClusterPolicy {
  return {
    id: str(w.id),
    clusterId: str(w.cluster_id),
    clusterName: str(w.cluster_name),
    policyId: str(w.policy_id),
    policyName: str(w.policy_name),
    policyType: str(w.policy_type),
    enabled: w.enabled === true,
  };
}

/** A profile from its JSON. */
export function fromProfile(w: Wire): Profile {
  return { ...stamped(w), type: str(w.type), spec: obj(w.spec) as TypedSpec, metadata: obj(w.metadata) };
}

/** A policy from its JSON. */
export function fromPolicy(w: Wire): Policy {
  return { ...stamped(w), type: str(w.type), spec: obj(w.spec) as TypedSpec, data: obj(w.data) };
}

/** A receiver from its JSON. */
export function fromReceiver(w: Wire): Receiver {
  return {
    ...stamped(w),
    type: str(w.type) as ReceiverType,
    clusterId: strOrNull(w.cluster_id),
    action: strOrNull(w.action),
    params: obj(w.params),
    actor: obj(w.actor),
    channel: obj(w.channel),
  };
}

/** The `receiver` object of a create request. */
export function toReceiverCreate(spec: ReceiverSpec): Wire {
  return defined({ name: spec.name, type: spec.type, cluster_id: spec.clusterId, action: spec.action, params: spec.params });
}

/** The `cluster` object of a create request. */
export function toClusterCreate(spec: ClusterSpec): Wire {
  return defined({
    name: spec.name,
    profile_id: spec.profileId,
    min_size: spec.minSize,
    max_size: spec.maxSize,
    desired_capacity: spec.desiredCapacity,
    timeout: spec.timeout,
    metadata: spec.metadata,
    config: spec.config,
  });
}

/** The `cluster` object of an update request. */
export function toClusterUpdate(update: ClusterUpdate): Wire {
  return defined({
    name: update.name,
    profile_id: update.profileId,
    timeout: update.timeout,
    metadata: update.metadata,
    config: update.config,
    profile_only: update.profileOnly,
  });
}

/** The parameters of a `resize` action. */
export function toResize(params: ResizeParams): Wire {
  return defined({
    adjustment_type: params.adjustmentType,
    number: params.number,
    min_size: params.minSize,
    max_size: params.maxSize,
    min_step: params.minStep,
    strict: params.strict,
  });
}

/** The `node` object of a create request. */
export function toNodeCreate(spec: NodeSpec): Wire {
  return defined({ name: spec.name, profile_id: spec.profileId, cluster_id: spec.clusterId, role: spec.role, metadata: spec.metadata });
}

/** Query parameters of a list call. */
export function toListQuery(query: ListQuery = {}): Record<string, string | number | boolean | undefined> {
  return { ...query.filters, sort: query.sort, limit: query.limit, marker: query.marker, global_project: query.globalProject || undefined };
}
