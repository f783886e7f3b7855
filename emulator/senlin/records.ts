/** Who owns an object: the token's user, project and domain when it was created. */
export interface Owner {
  user: string;
  project: string;
  domain: string;
}

/** A stored profile. */
export interface ProfileRecord extends Owner {
  id: string;
  name: string;
  /** `<type>-<version>`, e.g. `os.nova.server-1.0`. */
  type: string;
  spec: Record<string, unknown>;
  metadata: Record<string, unknown>;
  createdAtMs: number;
  updatedAtMs: number | null;
}

/** A stored policy. */
export interface PolicyRecord extends Owner {
  id: string;
  name: string;
  /** `<type>-<version>`, e.g. `senlin.policy.deletion-1.1`. */
  type: string;
  spec: Record<string, unknown>;
  data: Record<string, unknown>;
  createdAtMs: number;
  updatedAtMs: number | null;
}

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

/** A stored cluster. Its status is stored, and changed only by actions starting and ending. */
export interface ClusterRecord extends Owner {
  id: string;
  name: string;
  profileId: string;
  minSize: number;
  /** -1 means unbounded. */
  maxSize: number;
  desiredCapacity: number;
  timeout: number;
  status: ClusterStatus;
  statusReason: string;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Index the next member node gets. */
  nextIndex: number;
  initAtMs: number;
  createdAtMs: number | null;
  updatedAtMs: number | null;
}

/** Node statuses Senlin reports. */
export type NodeStatus = "INIT" | "ACTIVE" | "ERROR" | "WARNING" | "CREATING" | "UPDATING" | "DELETING" | "RECOVERING" | "OPERATING";

/** A stored node. */
export interface NodeRecord extends Owner {
  id: string;
  name: string;
  profileId: string;
  /** The owning cluster's id, empty for an orphan node. */
  clusterId: string;
  /** Position in the cluster, -1 for an orphan. */
  index: number;
  /** "" when made, null once a node moved into a cluster (Senlin's node_migrate sets it so). */
  role: string | null;
  status: NodeStatus;
  statusReason: string;
  physicalId: string | null;
  metadata: Record<string, unknown>;
  data: Record<string, unknown>;
  initAtMs: number;
  createdAtMs: number | null;
  updatedAtMs: number | null;
}

/** A policy attached to a cluster. */
export interface BindingRecord {
  /** The binding's own id. */
  id: string;
  clusterId: string;
  policyId: string;
  enabled: boolean;
  createdAtMs: number;
}

/**
 * Action statuses. This server never leaves an action INIT; a cluster action that works through
 * node actions goes RUNNING -> WAITING -> READY before it ends, as Senlin's do (lifecycle.ts).
 */
export type ActionStatus = "INIT" | "WAITING" | "READY" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";

/** The `cause` of the actions an action starts for itself (Senlin's CAUSE_DERIVED). */
export const DERIVED_CAUSE = "Derived Action";

/** The engine action names this server runs. */
export type ActionName =
  | "CLUSTER_CREATE"
  | "CLUSTER_DELETE"
  | "CLUSTER_UPDATE"
  | "CLUSTER_RESIZE"
  | "CLUSTER_SCALE_OUT"
  | "CLUSTER_SCALE_IN"
  | "CLUSTER_ADD_NODES"
  | "CLUSTER_DEL_NODES"
  | "CLUSTER_REPLACE_NODES"
  | "CLUSTER_ATTACH_POLICY"
  | "CLUSTER_DETACH_POLICY"
  | "CLUSTER_UPDATE_POLICY"
  | "CLUSTER_CHECK"
  | "CLUSTER_RECOVER"
  | "CLUSTER_OPERATION"
  | "NODE_CREATE"
  | "NODE_DELETE"
  | "NODE_UPDATE"
  | "NODE_CHECK"
  | "NODE_RECOVER"
  | "NODE_OPERATION";

/** What an action does when it starts and ends, decided when it is accepted. */
export interface ActionPlan {
  /** New size (resize, scale, add/del nodes). */
  size?: { minSize: number; maxSize: number; desiredCapacity: number };
  /** Node ids the action adds, removes or replaces (old -> new for replace). */
  nodes?: string[];
  replacements?: Record<string, string>;
  /** Whether removed nodes are destroyed rather than orphaned. */
  destroy?: boolean;
  policyId?: string;
  enabled?: boolean;
  /** Cluster property changes of an update. */
  changes?: { name?: string; profileId?: string; metadata?: Record<string, unknown>; timeout?: number; config?: Record<string, unknown>; role?: string };
  /** A failure decided in advance (a fault): the action fails and takes its cluster to ERROR. */
  failure?: string;
  /**
   * A refusal decided in advance (a scale beyond the cluster's bounds): the action fails with it
   * before touching the cluster, as the engine's own size check does.
   */
  refusal?: string;
  /** Node ids the action's start created (or is recovering), for its end. */
  created?: string[];
  /** Node ids the action's start chose to remove, for its end. */
  removed?: string[];
  /** Profile operation name for CLUSTER_OPERATION. */
  operation?: string;
  /** A profile update's node update duration (time-scaled), for the rolling update its start plans. */
  nodeUpdateMs?: number;
  /** The time scale when accepted: a batch policy's pause is scaled by it. */
  timeScale?: number;
  /** Derived actions this action started (a rolling update's NODE_UPDATEs). */
  children?: string[];
}

/**
 * A stored action. Its status moves READY -> RUNNING -> SUCCEEDED/FAILED on the clock, through
 * WAITING and READY again between `waitingMs` and `endMs` when it works through node actions.
 */
export interface ActionRecord extends Owner {
  id: string;
  /** e.g. `cluster_resize_1a2b3c4d`. */
  name: string;
  action: ActionName;
  /** The cluster or node id. */
  target: string;
  /** Cluster id of a cluster action, or the cluster of a node action; empty otherwise. */
  clusterId: string;
  cause: string;
  status: ActionStatus;
  statusReason: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  timeout: number;
  plan: ActionPlan;
  createdAtMs: number;
  startMs: number;
  endMs: number;
  updatedAtMs: number | null;
  /** What policies recorded on the action (a batch policy's update plan); absent means `{}`. */
  data?: Record<string, unknown>;
  /** Ids of the derived actions this one waits for. */
  dependsOn?: string[];
  /**
   * When it starts WAITING for its node actions, and when it is READY again (they all ended);
   * set when it starts, for the actions that work through node actions only.
   */
  waitingMs?: number;
  readyAgainMs?: number;
  /**
   * What the engine's handler answered when the action succeeded (`Cluster creation succeeded.`):
   * its end event's reason, the action itself showing the dispatcher's `Action completed successfully.`.
   */
  handlerReason?: string;
  /** Ids of the actions waiting for this one. */
  dependedBy?: string[];
}

/** A stored receiver: a webhook that runs a cluster action, or a message queue. */
export interface ReceiverRecord extends Owner {
  id: string;
  name: string;
  type: "webhook" | "message";
  clusterId: string | null;
  /** The engine action a webhook runs, e.g. `CLUSTER_SCALE_OUT`. */
  action: string | null;
  params: Record<string, unknown>;
  /** The params at creation, which the alarm URL carries for good (absent in older databases: `params`). */
  createParams?: Record<string, unknown>;
  createdAtMs: number;
  updatedAtMs: number | null;
}

/**
 * A stored event, as Senlin's engine writes one: when an action starts (`start`) and when it ends
 * (`end`, or `error` for a failed or cancelled one), with the object's name at that moment.
 */
export interface EventRecord {
  /** Stable: derived from the action's id and the phase. */
  id: string;
  atMs: number;
  user: string;
  project: string;
  actionId: string;
  action: ActionName;
  /** The cluster involved, or empty. */
  clusterId: string;
  /** The action's target. */
  oid: string;
  oname: string;
  otype: "CLUSTER" | "NODE";
  phase: "start" | "end" | "error";
  reason: string;
}

/** Whether an action has started: it is running, waiting for its node actions, ready again after them, or ended. */
export function hasStarted(action: Pick<ActionRecord, "status" | "waitingMs">): boolean {
  return action.status !== "INIT" && (action.status !== "READY" || action.waitingMs !== undefined);
}
