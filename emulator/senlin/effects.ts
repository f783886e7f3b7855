import { randomUUID } from "node:crypto";
import { activateNodes, createMember, evalClusterStatus, pickVictims, removeNodes, setNodeStatus } from "./cluster-state";
import { type ActionName, type ActionRecord, type ClusterStatus, DERIVED_CAUSE } from "./records";
import { rollingUpdateFailure, startRollingUpdate } from "./rolling-update";
import type { SenlinStore } from "./store";

/**
 * What an action's end produced: a failure, or nothing (success: every action then ends with
 * Senlin's one reason and empty `outputs`, whatever it did).
 */
export interface EndOutcome {
  failure?: string;
}

/** How one kind of action behaves. */
export interface ActionKind {
  /** The cluster status and reason while it runs; absent leaves the cluster as it is. */
  running?: [ClusterStatus, string];
  /** Effects when it starts: what shows at once (sizes, new nodes CREATING, victims DELETING). */
  onStart?(store: SenlinStore, action: ActionRecord, atMs: number): void;
  /** Effects when it ends successfully. */
  onEnd(store: SenlinStore, action: ActionRecord, atMs: number): EndOutcome;
  /**
   * What Senlin 14's handler of the action answers when it succeeds (senlin/engine/actions/
   * cluster_action.py and node_action.py, the policy methods of engine/cluster.py): the reason of
   * its end event. Read before onEnd.
   */
  succeeded: string | ((store: SenlinStore, action: ActionRecord) => string);
  /**
   * Whether it works through node actions, which it waits for (Senlin's derived NODE_CREATE,
   * NODE_DELETE, NODE_JOIN, ... actions): read once it started. @default never
   */
  waitsForNodes?(store: SenlinStore, action: ActionRecord): boolean;
}

/** Node ids an action's start chose to create or remove, or it adds, removes or replaces. */
const nodesOf = (action: ActionRecord): number =>
  (action.plan.created?.length ?? 0) + (action.plan.removed?.length ?? 0) + (action.plan.nodes?.length ?? 0) + Object.keys(action.plan.replacements ?? {}).length;
const worksOnNodes = (_store: SenlinStore, action: ActionRecord): boolean => nodesOf(action) > 0;
const hasMembers = (store: SenlinStore, action: ActionRecord): boolean => store.members(action.clusterId).length > 0;

/** Records the node ids an action's start chose, for its end. */
function remember(store: SenlinStore, action: ActionRecord, created: string[], removed: string[]): void {
  store.actions.update(action.id, (a) => ({ ...a, plan: { ...a.plan, created, removed } }));
}

function plan(store: SenlinStore, action: ActionRecord) {
  return store.actions.get(action.id)?.plan ?? action.plan;
}

/** Brings the member count to the planned desired capacity: creates nodes or marks victims DELETING. */
function startResize(store: SenlinStore, action: ActionRecord, atMs: number): void {
  const cluster = store.clusters.update(action.clusterId, (c) => ({ ...c, ...action.plan.size }));
  if (!cluster) return;
  const members = store.members(cluster.id).filter((n) => n.status !== "DELETING");
  const delta = cluster.desiredCapacity - members.length;
  const created = Array.from({ length: Math.max(0, delta) }, () => createMember(store, cluster, atMs).id);
  const removed = pickVictims(members, -delta);
  setNodeStatus(store, removed, "DELETING", "Deletion in progress");
  remember(store, action, created, removed);
}

function endResize(store: SenlinStore, action: ActionRecord, atMs: number): EndOutcome {
  const { created = [], removed = [] } = plan(store, action);
  activateNodes(store, created, "Creation succeeded", atMs);
  removeNodes(store, removed, true, atMs);
  evalClusterStatus(store, action.clusterId, action.action, atMs);
  return {};
}

const resizing = { running: ["RESIZING", "Cluster resize started."], onStart: startResize, onEnd: endResize, waitsForNodes: worksOnNodes } satisfies Omit<ActionKind, "succeeded">;

/** A healthy node after a check, as the os.nova.server profile reports it. */
function markChecked(store: SenlinStore, ids: readonly string[]): void {
  for (const id of ids) store.nodes.update(id, (n) => (n.status === "ACTIVE" ? { ...n, statusReason: "Check: Node is ACTIVE." } : n));
}

/** Evaluates the cluster after an action that changed no membership. */
const evaluate = (store: SenlinStore, action: ActionRecord, atMs: number): EndOutcome => {
  evalClusterStatus(store, action.clusterId, action.action, atMs);
  return {};
};

const CLUSTER_KINDS: Readonly<Record<Exclude<ActionName, `NODE_${string}`>, ActionKind>> = {
  CLUSTER_CREATE: {
    succeeded: "Cluster creation succeeded.",
    waitsForNodes: worksOnNodes,
    running: ["CREATING", "Creation in progress"],
    onStart: (store, action, atMs) => {
      const cluster = store.clusters.get(action.clusterId);
      if (!cluster) return;
      const created = Array.from({ length: cluster.desiredCapacity }, () => createMember(store, cluster, atMs).id);
      remember(store, action, created, []);
    },
    onEnd: (store, action, atMs) => {
      activateNodes(store, plan(store, action).created ?? [], "Creation succeeded", atMs);
      store.clusters.update(action.clusterId, (c) => ({ ...c, createdAtMs: atMs }));
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_DELETE: {
    // do_delete answers what deleting the nodes answered: _wait_for_dependents' reason, or nothing ("SUCCEEDED" in the event).
    succeeded: (store, action) => (hasMembers(store, action) ? "All dependents ended with success" : "SUCCEEDED"),
    waitsForNodes: hasMembers,
    running: ["DELETING", "Deletion in progress"],
    onStart: (store, action) => {
      // Senlin 14's do_delete removes the cluster's receivers first: their URLs stop working at once.
      for (const receiver of store.receivers.list(undefined)) if (receiver.clusterId === action.clusterId) store.receivers.delete(receiver.id);
      const ids = store.members(action.clusterId).map((n) => n.id);
      setNodeStatus(store, ids, "DELETING", "Deletion in progress");
    },
    onEnd: (store, action) => {
      for (const node of store.members(action.clusterId)) store.nodes.delete(node.id);
      for (const binding of store.bindings(action.clusterId)) store.deleteBinding(binding.clusterId, binding.policyId);
      store.clusters.delete(action.clusterId);
      return {};
    },
  },
  CLUSTER_UPDATE: {
    succeeded: "Cluster update completed.",
    waitsForNodes: (_store, action) => (action.plan.children?.length ?? 0) > 0,
    running: ["UPDATING", "Update in progress"],
    // The engine stores name, metadata and timeout first, then rolls the nodes to a new profile.
    onStart: (store, action, atMs) => {
      const { profileId: _profile, ...properties } = action.plan.changes ?? {};
      store.clusters.update(action.clusterId, (c) => ({ ...c, ...properties }));
      startRollingUpdate(store, action, atMs);
    },
    onEnd: (store, action, atMs) => {
      const failure = rollingUpdateFailure(store, action);
      if (failure) return { failure };
      const profileId = action.plan.changes?.profileId;
      if (profileId) store.clusters.update(action.clusterId, (c) => ({ ...c, profileId }));
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_RESIZE: { ...resizing, succeeded: "Cluster resize succeeded." },
  CLUSTER_SCALE_OUT: { ...resizing, succeeded: "Cluster scaling succeeded." },
  CLUSTER_SCALE_IN: { ...resizing, succeeded: "Cluster scaling succeeded." },
  CLUSTER_ADD_NODES: {
    succeeded: "Completed adding nodes.",
    waitsForNodes: worksOnNodes,
    running: ["RESIZING", "Cluster resize started."],
    onStart: (store, action) => {
      store.clusters.update(action.clusterId, (c) => ({ ...c, ...action.plan.size }));
      for (const id of action.plan.nodes ?? []) {
        const cluster = store.clusters.get(action.clusterId);
        if (!cluster) return;
        // Senlin's node_migrate: the node takes the cluster's next index and loses its role (null).
        store.nodes.update(id, (n) => ({ ...n, clusterId: cluster.id, index: cluster.nextIndex, role: null }));
        store.clusters.update(cluster.id, (c) => ({ ...c, nextIndex: c.nextIndex + 1 }));
      }
    },
    onEnd: evaluate,
  },
  CLUSTER_DEL_NODES: {
    succeeded: "Completed deleting nodes.",
    waitsForNodes: worksOnNodes,
    running: ["RESIZING", "Cluster resize started."],
    onStart: (store, action) => {
      store.clusters.update(action.clusterId, (c) => ({ ...c, ...action.plan.size }));
      if (action.plan.destroy) setNodeStatus(store, action.plan.nodes ?? [], "DELETING", "Deletion in progress");
    },
    onEnd: (store, action, atMs) => {
      removeNodes(store, action.plan.nodes ?? [], action.plan.destroy === true, atMs);
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_REPLACE_NODES: {
    succeeded: "Completed replacing nodes.",
    waitsForNodes: worksOnNodes,
    running: ["RESIZING", "Cluster resize started."],
    onEnd: (store, action, atMs) => {
      for (const [oldId, newId] of Object.entries(action.plan.replacements ?? {})) {
        const index = store.nodes.get(oldId)?.index ?? -1;
        removeNodes(store, [oldId], false, atMs);
        store.nodes.update(newId, (n) => ({ ...n, clusterId: action.clusterId, index, updatedAtMs: atMs }));
      }
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_ATTACH_POLICY: {
    succeeded: (store, action) => (store.bindings(action.clusterId).some((b) => b.policyId === action.plan.policyId) ? "Policy already attached." : "Policy attached."),
    onEnd: (store, action, atMs) => {
      const policy = store.policies.get(action.plan.policyId ?? "");
      if (!policy) return { failure: `The policy '${action.plan.policyId}' could not be found.` };
      const bindings = store.bindings(action.clusterId);
      if (bindings.some((b) => b.policyId === policy.id)) return {};
      const sameType = bindings.map((b) => store.policies.get(b.policyId)).find((p) => p?.type === policy.type);
      if (sameType) {
        return {
          failure: `Only one instance of policy type (${policy.type}) can be attached to a cluster, but another instance (${sameType.id}) is found attached to the cluster (${action.clusterId}) already.`,
        };
      }
      const binding = { id: randomUUID(), clusterId: action.clusterId, policyId: policy.id, enabled: action.plan.enabled !== false, createdAtMs: atMs };
      store.putBinding(binding);
      return {};
    },
  },
  CLUSTER_DETACH_POLICY: {
    succeeded: "Policy detached.",
    onEnd: (store, action) => {
      store.deleteBinding(action.clusterId, action.plan.policyId ?? "");
      return {};
    },
  },
  CLUSTER_UPDATE_POLICY: {
    // `enabled` defaults to true in the request (ClusterUpdatePolicyRequest), so never "No update is needed.".
    succeeded: "Policy updated.",
    onEnd: (store, action) => {
      const binding = store.bindings(action.clusterId).find((b) => b.policyId === action.plan.policyId);
      if (!binding) return { failure: "The policy is not attached to the cluster." };
      store.putBinding({ ...binding, enabled: action.plan.enabled !== false });
      return {};
    },
  },
  CLUSTER_CHECK: {
    succeeded: "Cluster checking completed.",
    waitsForNodes: hasMembers,
    running: ["CHECKING", "Check in progress"],
    onEnd: (store, action, atMs) => {
      markChecked(store, store.members(action.clusterId).map((n) => n.id));
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_RECOVER: {
    succeeded: "Cluster recovery succeeded.",
    waitsForNodes: worksOnNodes,
    running: ["RECOVERING", "Recovery in progress"],
    onStart: (store, action) => {
      const sick = store.members(action.clusterId).filter((n) => n.status === "ERROR" || n.status === "WARNING");
      setNodeStatus(store, sick.map((n) => n.id), "RECOVERING", "Recovery in progress");
      remember(store, action, sick.map((n) => n.id), []);
    },
    onEnd: (store, action, atMs) => {
      activateNodes(store, plan(store, action).created ?? [], "Recovery succeeded", atMs);
      return evaluate(store, action, atMs);
    },
  },
  CLUSTER_OPERATION: {
    succeeded: (_store, action) => `Cluster operation '${action.plan.operation}' completed.`,
    waitsForNodes: (_store, action) => Array.isArray(action.inputs.nodes) && action.inputs.nodes.length > 0,
    running: ["OPERATING", "Operation in progress"],
    onEnd: evaluate,
  },
};

/** Re-evaluates a node's cluster after a node action, if it has one. */
function evalOwner(store: SenlinStore, clusterId: string, operation: string, atMs: number): void {
  if (clusterId) evalClusterStatus(store, clusterId, operation, atMs);
}

/** How every action behaves, by engine action name. */
export const ACTION_KINDS: Readonly<Record<ActionName, ActionKind>> = {
  ...CLUSTER_KINDS,
  NODE_CREATE: {
    succeeded: "Node created successfully.",
    onStart: (store, action) => {
      setNodeStatus(store, [action.target], "CREATING", "Creation in progress");
      if (action.clusterId) store.clusters.update(action.clusterId, (c) => ({ ...c, ...action.plan.size }));
    },
    onEnd: (store, action, atMs) => {
      activateNodes(store, [action.target], "Creation succeeded", atMs);
      evalOwner(store, action.clusterId, "CLUSTER_ADD_NODES", atMs);
      return {};
    },
  },
  NODE_DELETE: {
    succeeded: "Node deleted successfully.",
    onStart: (store, action) => setNodeStatus(store, [action.target], "DELETING", "Deletion in progress"),
    onEnd: (store, action, atMs) => {
      store.nodes.delete(action.target);
      if (action.clusterId) store.clusters.update(action.clusterId, (c) => ({ ...c, desiredCapacity: Math.max(0, c.desiredCapacity - 1) }));
      evalOwner(store, action.clusterId, "CLUSTER_DEL_NODES", atMs);
      return {};
    },
  },
  NODE_UPDATE: {
    succeeded: (_store, action) => (Object.keys(action.inputs).length === 0 ? "No property to update." : "Node updated successfully."),
    onStart: (store, action) => setNodeStatus(store, [action.target], "UPDATING", "Update in progress"),
    onEnd: (store, action, atMs) => {
      store.nodes.update(action.target, (n) => ({ ...n, ...(action.plan.changes ?? {}), updatedAtMs: atMs }));
      activateNodes(store, [action.target], "Update succeeded", atMs);
      // A rolling update's own node updates leave the cluster to the cluster action.
      if (action.cause !== DERIVED_CAUSE) evalOwner(store, action.clusterId, "NODE_UPDATE", atMs);
      return {};
    },
  },
  NODE_CHECK: {
    succeeded: "Node check succeeded.",
    onEnd: (store, action) => {
      markChecked(store, [action.target]);
      return {};
    },
  },
  NODE_RECOVER: {
    succeeded: "Node recovered successfully.",
    onStart: (store, action) => setNodeStatus(store, [action.target], "RECOVERING", "Recovery in progress"),
    onEnd: (store, action, atMs) => {
      activateNodes(store, [action.target], "Recovery succeeded", atMs);
      evalOwner(store, action.clusterId, "NODE_RECOVER", atMs);
      return {};
    },
  },
  NODE_OPERATION: {
    succeeded: (_store, action) => `Node operation '${action.plan.operation}' succeeded.`,
    onStart: (store, action) => setNodeStatus(store, [action.target], "OPERATING", `Operation '${action.plan.operation}' in progress`),
    onEnd: (store, action, atMs) => {
      activateNodes(store, [action.target], `Operation '${action.plan.operation}' succeeded`, atMs);
      return {};
    },
  },
};
