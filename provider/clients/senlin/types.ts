/** Cluster statuses Senlin reports. */
export type ClusterStatus =
  | "INIT"
  | "ACTIVE"
  | "CREATING"
  | "UPDATING"
  | "RESIZING"
  | "DELETING"
  | "CHECKING"
  | "RECOVERING"
  | "CRITICAL"
  | "ERROR"
  | "WARNING"
  | "OPERATING";

/** Action statuses; SUCCEEDED, FAILED and CANCELLED are terminal. */
export type ActionStatus = "INIT" | "WAITING" | "READY" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "WAITING_LIFECYCLE_COMPLETION" | "SUSPENDED";

/** How `resize` reads `number`. */
export type AdjustmentType = "EXACT_CAPACITY" | "CHANGE_IN_CAPACITY" | "CHANGE_IN_PERCENTAGE";

/** Who owns an object and when it changed. Times are ISO 8601 (`…Z`), null before set. */
export interface Stamped {
  id: string;
  name: string;
  user: string;
  project: string;
  domain: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** A cluster. */
export interface Cluster extends Stamped {
  profileId: string;
  profileName: string | null;
  status: ClusterStatus;
  statusReason: string;
  minSize: number;
  /** -1 means unbounded. */
  maxSize: number;
  desiredCapacity: number;
  /** Default action timeout, seconds. */
  timeout: number;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Member node ids. */
  nodes: string[];
  /** Attached policy ids. */
  policies: string[];
  initAt: string | null;
}

/** What `createCluster` takes. */
export interface ClusterSpec {
  /** Starts with an ASCII letter; letters, digits, `_ . -`. */
  name: string;
  /** Name, short id or UUID of the profile. */
  profileId: string;
  /** @default 0 */
  minSize?: number;
  /** -1 for unbounded. @default -1 */
  maxSize?: number;
  /** @default minSize, else 0 */
  desiredCapacity?: number;
  /** Seconds. @default the server's default_action_timeout (3600) */
  timeout?: number;
  /** @default {} */
  metadata?: Record<string, unknown>;
  /** @default {} */
  config?: Record<string, unknown>;
}

/** What `updateCluster` changes; absent fields stay. */
export interface ClusterUpdate {
  /** @default unchanged */
  name?: string;
  /** A profile of the same type. @default unchanged */
  profileId?: string;
  /** @default unchanged */
  timeout?: number;
  /** Replaces the metadata. @default unchanged */
  metadata?: Record<string, unknown>;
  /** @default unchanged */
  config?: Record<string, unknown>;
  /** Change the cluster's profile without updating its nodes (needs 1.6). @default unset */
  profileOnly?: boolean;
}

/** What `resizeCluster` takes; at least one field. */
export interface ResizeParams {
  /** @default no capacity change */
  adjustmentType?: AdjustmentType;
  /** The adjustment; fractional only for CHANGE_IN_PERCENTAGE. @default unset */
  number?: number;
  /** @default unchanged */
  minSize?: number;
  /** @default unchanged */
  maxSize?: number;
  /** Smallest change of a percentage adjustment. @default unset */
  minStep?: number;
  /** Refuse (true) or truncate (false) a capacity outside the bounds. @default true */
  strict?: boolean;
}

/** An accepted asynchronous request: the server's answer and the action doing the work. */
export interface Accepted<T> {
  value: T;
  /** The action id, from the `Location` header. */
  actionId: string;
}

/** What a retried delete returns. */
export interface DeleteResult {
  /** The delete action's id; empty when `notFoundOnRetry` or for synchronous deletes. */
  actionId: string;
  /** True when a retry found the object gone: the earlier attempt landed before its reply was lost. */
  notFoundOnRetry: boolean;
}

/** An engine action. */
export interface Action {
  id: string;
  name: string;
  /** e.g. `CLUSTER_RESIZE`. */
  action: string;
  cause: string;
  /** The cluster or node id. */
  target: string;
  status: ActionStatus;
  statusReason: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Epoch seconds; null before it starts. */
  startTime: number | null;
  /** Epoch seconds; null before it ends. */
  endTime: number | null;
  timeout: number;
  createdAt: string | null;
  updatedAt: string | null;
}

/** A node. */
export interface Node extends Stamped {
  profileId: string;
  profileName: string | null;
  /** Empty for an orphan. */
  clusterId: string;
  /** -1 for an orphan. */
  index: number;
  role: string;
  status: string;
  statusReason: string;
  physicalId: string | null;
  metadata: Record<string, unknown>;
  data: Record<string, unknown>;
}

/** What `createNode` takes. */
export interface NodeSpec {
  name: string;
  profileId: string;
  /** Joins this cluster at creation. @default orphan */
  clusterId?: string;
  /** @default "" */
  role?: string;
  /** @default {} */
  metadata?: Record<string, unknown>;
}

/** A profile or policy spec: `{type, version, properties}`. */
export interface TypedSpec {
  type: string;
  version: string;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A profile. */
export interface Profile extends Stamped {
  /** `<type>-<version>`. */
  type: string;
  spec: TypedSpec;
  metadata: Record<string, unknown>;
}

/** A policy. */
export interface Policy extends Stamped {
  /** `<type>-<version>`. */
  type: string;
  spec: TypedSpec;
  data: Record<string, unknown>;
}

/** Receiver types Senlin knows: a webhook URL, or a Zaqar message queue. */
export type ReceiverType = "webhook" | "message";

/**
 * A receiver: a webhook that runs one cluster action when its URL is posted to, or a message queue.
 * The webhook URL (`channel.alarm_url`) needs no token: whoever holds it can run the action.
 */
export interface Receiver extends Stamped {
  type: ReceiverType;
  /** The cluster's UUID; null for a message receiver. */
  clusterId: string | null;
  /** The cluster action, e.g. `CLUSTER_SCALE_OUT`; null for a message receiver. */
  action: string | null;
  /** The action's inputs, e.g. `{ count: 1 }`. */
  params: Record<string, unknown>;
  /** Whom the action runs as: `{ trust_id }` for a webhook. */
  actor: Record<string, unknown>;
  /** `{ alarm_url }` for a webhook (fixed at creation), `{ queue_name }` for a message receiver. */
  channel: Record<string, unknown>;
}

/** What `createReceiver` takes. */
export interface ReceiverSpec {
  /** Starts with an ASCII letter; letters, digits, `_ . -`. */
  name: string;
  type: ReceiverType;
  /** Name, short id or UUID of the cluster; required for a webhook. @default none */
  clusterId?: string;
  /** The cluster action; required for a webhook. @default none */
  action?: string;
  /** @default {} */
  params?: Record<string, unknown>;
}

/** What `updateReceiver` changes; absent fields stay. */
export interface ReceiverUpdate {
  /** @default unchanged */
  name?: string;
  /** @default unchanged */
  action?: string;
  /** Replaces the params; the webhook URL keeps those it was made with. @default unchanged */
  params?: Record<string, unknown>;
}

/** A list query. */
export interface ListQuery {
  /** Filters by field, e.g. `{ name: "web" }` or `{ status: "ACTIVE" }`. @default {} */
  filters?: Record<string, string>;
  /** e.g. `name:asc,created_at:desc`. @default server order */
  sort?: string;
  /** @default all */
  limit?: number;
  /** Id of the last object of the previous page. @default first page */
  marker?: string;
  /** Every project's objects (admins only). @default false */
  globalProject?: boolean;
}

/** A policy attached to a cluster. */
export interface ClusterPolicy {
  /** The binding's id. */
  id: string;
  clusterId: string;
  clusterName: string;
  policyId: string;
  policyName: string;
  /** `<type>-<version>`. */
  policyType: string;
  enabled: boolean;
}

/** One member's value of a collected attribute. */
export interface ClusterAttribute {
  /** Node id. */
  id: string;
  value: unknown;
}

/** A profile or policy type a Senlin server has installed. */
export interface InstalledType {
  /** The full name, e.g. `os.nova.server-1.0`. */
  name: string;
  /** What a spec's `type` says, e.g. `os.nova.server`. */
  type: string;
  /** What a spec's `version` says, e.g. `1.0`. */
  version: string;
}
