import { randomUUID } from "node:crypto";
import { inTransaction } from "../database";
import { planNodeStart, type StartFaults, startBilling } from "./add-nodes";
import { accepted, assertNewRequestId, type CycleCloudEnv, loadCluster, type RestCall, type RestReply } from "./context";
import { parseBody } from "./create-handlers";
import type { ClusterDefinition } from "./definitions";
import { type NodeState, planTransition, type TransitionKind } from "./lifecycle";
import { nextIpIndex, privateIpOf, toNodeRecord } from "./node-record";
import { compileSelectors, managementRequestSchema } from "./selectors";
import { currentState } from "./settle";
import type { NodeRow } from "./store";

/** The management actions of `POST /clusters/{cluster}/nodes/{action}`. */
export const MANAGEMENT_ACTIONS = ["deallocate", "reimage", "remove", "restart", "shutdown", "start", "terminate"] as const;

/** One management action. */
export type ManagementAction = (typeof MANAGEMENT_ACTIONS)[number];

/** What an action does to one node: start a transition, nothing (already there), remove its record now, or refuse. */
type Decision = { start: TransitionKind } | { noop: true } | { removeNow: true } | { error: string };

const NOOP: Decision = { noop: true };
const refuse = (node: NodeRow, state: NodeState, allowed: string): Decision => ({
  error: `node "${node.name}" is ${state}; ${allowed}`,
});

const terminate = (_node: NodeRow, state: NodeState): Decision =>
  state === "Terminating" || state === "Terminated" ? NOOP : { start: "terminate" };

const deallocate = (node: NodeRow, state: NodeState): Decision => {
  if (state === "Deallocating" || state === "Deallocated") return NOOP;
  return state === "Ready" ? { start: "deallocate" } : refuse(node, state, "only Ready nodes can be deallocated");
};

const READY_ONLY = (kind: TransitionKind, verb: string) => (node: NodeRow, state: NodeState): Decision =>
  state === "Ready" ? { start: kind } : refuse(node, state, `only Ready nodes can be ${verb}`);

const STARTABLE: ReadonlySet<NodeState> = new Set<NodeState>(["Deallocated", "Terminated", "Failed"]);
const STARTING_OR_UP: ReadonlySet<NodeState> = new Set<NodeState>(["Acquiring", "Preparing", "Ready", "Restarting", "Reimaging"]);

/**
 * What each action does to a node in each state. `shutdown` deallocates nodes whose
 * `ShutdownPolicy` is `Deallocate` when they are Ready (or already deallocating) and terminates
 * every other node; `remove` terminates and always removes the record, even of a `Fixed` node.
 */
const DECIDE: Readonly<Record<ManagementAction, (node: NodeRow, state: NodeState) => Decision>> = {
  terminate,
  deallocate,
  shutdown: (node, state) =>
    node.attributes.ShutdownPolicy === "Deallocate" && ["Ready", "Deallocating", "Deallocated"].includes(state)
      ? deallocate(node, state)
      : terminate(node, state),
  remove: (node, state) => {
    if (state === "Terminated") return { removeNow: true };
    return state === "Terminating" && node.transition?.kind === "remove" ? NOOP : { start: "remove" };
  },
  start: (node, state) => {
    if (STARTING_OR_UP.has(state)) return NOOP;
    return STARTABLE.has(state) ? { start: "start" } : refuse(node, state, "wait until it is Deallocated or Terminated to start it");
  },
  restart: READY_ONLY("restart", "restarted"),
  reimage: READY_ONLY("reimage", "reimaged"),
};

/**
 * Applies a decision to a node resting in `state`. Starting a Terminated node builds a new VM:
 * its OS disk and network interface went with the old one, so it gets a new private IP (and so
 * hostname and instance id); a Deallocated node starts on the VM, disks and address it kept.
 */
function apply(env: CycleCloudEnv, cluster: ClusterDefinition, node: NodeRow, state: NodeState, decision: Decision, faults: StartFaults): void {
  const now = env.clock.now();
  if ("removeNow" in decision) {
    env.store.settleNode(node.id, { state: "Terminated", statusMessage: "", removedMs: now });
  } else if ("start" in decision && decision.start === "start") {
    if (state === "Terminated") env.store.setNodeIp(node.id, privateIpOf(nextIpIndex(env.store.listNodesEver(cluster.name))));
    const { transition, preemptAtMs } = planNodeStart(env, node.name, "start", faults);
    env.store.setTransition(node.id, transition);
    if (preemptAtMs !== undefined) env.store.setPreemption(node.id, preemptAtMs);
    startBilling(env, cluster, node, transition);
  } else if ("start" in decision) {
    env.store.setTransition(node.id, planTransition(decision.start, now, env.timeScale));
  }
}

/** The NodeManagementResult entry of one node. */
type NodeResult = { id: string; name: string; status: "OK" } | { id: string; name: string; status: "Error"; error: string };

/** POST /clusters/{cluster}/nodes/{action}: applies the action to the union of the selected nodes. */
export function manageNodes(env: CycleCloudEnv, call: RestCall, action: ManagementAction): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const request = parseBody(managementRequestSchema, call.body, "NodeManagementRequest");
  const selected = compileSelectors(request);
  assertNewRequestId(env, request.requestId);
  const now = env.clock.now();
  const nodes = env.store.listNodes(cluster.name).filter((n) => selected(toNodeRecord(cluster, n, now)));
  const faults: StartFaults = { info: call.info, operationFailure: action === "start" ? call.ctx.takeOperationFailure() : undefined };
  const operationId = randomUUID();
  const results = inTransaction(env.db, () => {
    env.store.insertOperation({ id: operationId, cluster: cluster.name, action, requestId: request.requestId, startMs: now });
    return nodes.map((node): NodeResult => {
      const state = currentState(node, now);
      const decision = DECIDE[action](node, state);
      if ("error" in decision) return { id: node.id, name: node.name, status: "Error", error: decision.error };
      apply(env, cluster, node, state, decision, faults);
      env.store.linkNodes(operationId, [node.id]);
      return { id: node.id, name: node.name, status: "OK" };
    });
  });
  return accepted(env, operationId, { operationId, nodes: results });
}
