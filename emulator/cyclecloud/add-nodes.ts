import { randomUUID } from "node:crypto";
import type { CallInfo } from "../calls";
import type { Fault } from "../faults";
import { availabilityOf, measureCapacity } from "./capacity";
import type { CycleCloudEnv } from "./context";
import type { BucketDefinition, ClusterDefinition, NodearrayDefinition } from "./definitions";
import { billingStartMs, type NodeTransition, PREEMPT_AFTER_MS, planTransition } from "./lifecycle";
import { machineTypeOf } from "./machine-types";
import { DEFAULT_NODE_ATTRIBUTES, nextIpIndex, privateIpOf } from "./node-record";
import type { NodeRow } from "./store";

/** The fault actions this platform consumes per node, beyond the built-in ones. */
export const NODE_FAULT_ACTIONS = ["fail-node", "preempt-node"] as const;

/** The default message of a node that a `fail-node` fault stops. */
export const FAILED_TO_START_MESSAGE = "Allocation failed: no capacity for the requested VM size (simulated)";

/** Consumes a per-node fault: one naming the node as target first, then one matching the call. */
export function takeNodeFault(env: CycleCloudEnv, info: CallInfo, nodeName: string, action: string): Fault | undefined {
  return env.faults.take({ ...info, target: nodeName }, action) ?? env.faults.take(info, action);
}

/** What a node start (create or start of an existing node) is told by faults. */
export interface StartFaults {
  /** Failure message of a `fail-operation` fault taken once for the whole call. @default undefined (no failure) */
  operationFailure?: string;
  info: CallInfo;
}

/**
 * Plans a create or start of one node: a `fail-node` fault (or the call's `fail-operation`)
 * makes it fail when Acquiring ends; a `preempt-node` fault evicts it `delayMs` (default
 * {@link PREEMPT_AFTER_MS}, scaled) after it is Ready. Opens the billing span unless it fails.
 */
export function planNodeStart(env: CycleCloudEnv, nodeName: string, kind: "create" | "start", faults: StartFaults): { transition: NodeTransition; preemptAtMs?: number } {
  const failNode = takeNodeFault(env, faults.info, nodeName, "fail-node");
  const failMessage = failNode ? (failNode.message ?? FAILED_TO_START_MESSAGE) : faults.operationFailure;
  const transition = planTransition(kind, env.clock.now(), env.timeScale, failMessage);
  if (failMessage !== undefined) return { transition };
  const preempt = takeNodeFault(env, faults.info, nodeName, "preempt-node");
  const preemptAtMs = preempt ? transition.endMs + Math.round((preempt.delayMs ?? PREEMPT_AFTER_MS) * env.timeScale) : undefined;
  return { transition, preemptAtMs };
}

/** Opens a node's billing span as its VM begins Preparing. */
export function startBilling(env: CycleCloudEnv, cluster: ClusterDefinition, node: NodeRow, transition: NodeTransition): void {
  if (transition.failMessage !== undefined) return;
  const nodearray = cluster.nodearrays.find((n) => n.name === node.nodearray);
  env.store.startUsage({
    nodeId: node.id,
    cluster: cluster.name,
    nodearray: node.nodearray,
    machineType: node.machineType,
    coreCount: machineTypeOf(node.machineType).vcpuCount,
    region: nodearray?.region ?? "",
    spot: nodearray?.spot ?? false,
    startMs: billingStartMs(transition),
  });
}

/** One set of nodes to add to a bucket. */
export interface NodeSet {
  nodearray: NodearrayDefinition;
  bucket: BucketDefinition;
  count: number;
  /** `%d` is replaced by the node index. @default "<nodearray>-%d" */
  nameFormat?: string;
  /** First index tried. @default 1 */
  nameOffset?: number;
  /** @default {} */
  nodeAttributes?: Record<string, unknown>;
  /** @default "" (none) */
  placementGroupId?: string;
  /** @default "" (none) */
  requestId?: string;
}

/** What adding a set achieved: NodeCreationResult's `added` and `message`, and the new node ids. */
export interface SetResult {
  added: number;
  /** Why fewer were added. @default undefined (all were added) */
  message?: string;
  nodeIds: string[];
}

function* freeNames(format: string, offset: number, taken: ReadonlySet<string>): Generator<string> {
  for (let index = offset; ; index++) {
    const name = format.replace("%d", String(index));
    if (!taken.has(name)) yield name;
  }
}

/** Adds up to `set.count` nodes, as many as the quotas and limits allow, starting them now. */
export function addNodes(env: CycleCloudEnv, cluster: ClusterDefinition, set: NodeSet, faults: StartFaults): SetResult {
  const now = env.clock.now();
  const all = env.store.listNodes();
  const capacity = measureCapacity(env.store.listClusters(), cluster.name, all, now);
  const placementGroup = set.placementGroupId ?? "";
  const availability = availabilityOf(cluster, set.nodearray, set.bucket, capacity, placementGroup);
  const added = Math.min(set.count, availability.availableCount);
  const taken = new Set(all.filter((n) => n.cluster === cluster.name).map((n) => n.name));
  const names = freeNames(set.nameFormat ?? `${set.nodearray.name}-%d`, set.nameOffset ?? 1, taken);
  let ipIndex = nextIpIndex(env.store.listNodesEver(cluster.name));
  const nodeIds: string[] = [];
  for (let i = 0; i < added; i++) {
    const identity = { id: randomUUID(), name: names.next().value as string };
    const { transition, preemptAtMs } = planNodeStart(env, identity.name, "create", faults);
    const node = {
      ...identity,
      seq: 0,
      cluster: cluster.name,
      nodearray: set.nodearray.name,
      machineType: set.bucket.machineType,
      ip: privateIpOf(ipIndex++),
      placementGroup,
      attributes: {
        ...DEFAULT_NODE_ATTRIBUTES,
        ShutdownPolicy: set.nodearray.shutdownPolicy,
        Fixed: set.nodearray.fixed,
        ...set.nodearray.attributes,
        ...set.nodeAttributes,
      },
      requestId: set.requestId ?? "",
      createdMs: now,
      state: "Acquiring" as const,
      statusMessage: "",
      transition,
      preemptAtMs,
    };
    env.store.insertNode(node);
    startBilling(env, cluster, node, transition);
    nodeIds.push(identity.id);
  }
  const message = added < set.count ? `only ${added} of ${set.count} nodes were added: ${availability.reason}` : undefined;
  return { added, message, nodeIds };
}
