import type { ClusterDefinition } from "./definitions";
import { type NodeState, RESTING_TARGET, STATUS_OF, TRANSITIONS } from "./lifecycle";
import { currentState } from "./settle";
import type { NodeRow } from "./store";

/** A node record as the REST API returns it: PascalCase attributes. */
export type NodeRecord = Record<string, unknown>;

/** States in which the node has a VM, so a hostname, private IP and instance id. */
const HAS_VM: ReadonlySet<NodeState> = new Set<NodeState>([
  "Preparing",
  "Ready",
  "Restarting",
  "Reimaging",
  "Terminating",
  "Deallocating",
  "Deallocated",
]);

/** Attributes a node starts with unless its nodearray or the request says otherwise. */
export const DEFAULT_NODE_ATTRIBUTES: Readonly<Record<string, unknown>> = { KeepAlive: false, Configuration: {} };

/** The private IP of the `index`-th node of a cluster (Azure keeps the first four addresses of a subnet). */
export function privateIpOf(index: number): string {
  const n = index + 4;
  return `10.1.${(n >> 8) & 255}.${n & 255}`;
}

/** The index of a private IP {@link privateIpOf} gave. */
function ipIndexOf(ip: string): number {
  const [, , high, low] = ip.split(".").map(Number);
  return high * 256 + low - 4;
}

/** The next unused private IP index of a cluster, given every node it ever had. */
export function nextIpIndex(nodes: readonly { ip: string }[]): number {
  return nodes.reduce((next, n) => Math.max(next, ipIndexOf(n.ip) + 1), 0);
}

/** CycleCloud's default hostname: `ip-` and the private IP as eight hex digits. */
export function hostnameOf(ip: string): string {
  return `ip-${ip
    .split(".")
    .map((part) => Number(part).toString(16).toUpperCase().padStart(2, "0"))
    .join("")}`;
}

/** The node's record at `nowMs`; system attributes win over the node's own. */
export function toNodeRecord(cluster: ClusterDefinition, node: NodeRow, nowMs: number): NodeRecord {
  const state = currentState(node, nowMs);
  const nodearray = cluster.nodearrays.find((n) => n.name === node.nodearray);
  const hostname = hostnameOf(node.ip);
  const record: NodeRecord = {
    ...node.attributes,
    Name: node.name,
    NodeId: node.id,
    ClusterName: node.cluster,
    Template: node.nodearray,
    MachineType: node.machineType,
    Region: nodearray?.region ?? "",
    Interruptible: nodearray?.spot ?? false,
    State: state,
    Status: STATUS_OF[state],
    TargetState: node.transition ? TRANSITIONS[node.transition.kind].targetState : RESTING_TARGET[state],
  };
  if (node.statusMessage !== "" && !node.transition) record.StatusMessage = node.statusMessage;
  if (HAS_VM.has(state)) {
    record.Hostname = hostname;
    record.PrivateIp = node.ip;
    record.InstanceId = `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/${node.cluster}/providers/Microsoft.Compute/virtualMachines/${hostname}`;
  }
  if (node.placementGroup !== "") record.PlacementGroupId = node.placementGroup;
  if (node.requestId !== "") record.RequestId = node.requestId;
  return record;
}
