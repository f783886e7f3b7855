import type { ManagementAction, NodeRecord } from "../../../clients/cyclecloud/types";
import { platformOwnsCapacity } from "../../../core/capacity";
import type { CheckFailure } from "../../../core/validation";
import { isUnknown } from "../../../core/unknown";
import { NODE_POOL_CALLS, type PowerState } from "./schema";

type Props = Record<string, unknown>;

/** A power state other than running: the pool's nodes hold no running VM. */
export type ParkedState = Exclude<PowerState, "running">;

/**
 * How each power state is reached and what it keeps (CycleCloud's nodes/start, nodes/deallocate,
 * nodes/shutdown; the spec says which nodes they act on, Azure what a deallocated or terminated VM
 * keeps):
 *
 * | powerState | call (action) | node State | keeps |
 * | --- | --- | --- | --- |
 * | running | StartNodes (start) | Ready | everything |
 * | deallocated | DeallocateNodes (deallocate) | Deallocated | the VM, its disks and private IP; compute is released |
 * | off | ShutdownNodes (shutdown) | Terminated | the node record only (Fixed nodes); VM, OS disk and address are released |
 *
 * `off` goes through nodes/shutdown, which terminates nodes whose `ShutdownPolicy` is Terminate
 * (the default) and deallocates the others; a terminated node keeps its record only when it is
 * `Fixed`. So `off` requires both, checked on the nodes before any call (CycleCloud would
 * otherwise deallocate them, or remove them from the cluster).
 */
export const POWER: Readonly<Record<PowerState, { call: string; action: ManagementAction; state: string; verb: string }>> = {
  running: { call: NODE_POOL_CALLS.StartNodes, action: "start", state: "Ready", verb: "starts" },
  deallocated: { call: NODE_POOL_CALLS.DeallocateNodes, action: "deallocate", state: "Deallocated", verb: "deallocates (VMs stopped, disks and private IPs kept)" },
  off: { call: NODE_POOL_CALLS.ShutdownNodes, action: "shutdown", state: "Terminated", verb: "shuts down (VMs and OS disks deleted, node records kept)" },
};

/** The power state a `powerState` value asks for: absent (or unknown) is running. */
export function powerOf(value: unknown): PowerState {
  return value === "deallocated" || value === "off" ? value : "running";
}

/**
 * The parked state a node rests in or is on its way to: Deallocated or Deallocating is
 * `deallocated`; Terminated is `off` only for a `Fixed` node (any other loses its record).
 */
export function parkedOf(record: Pick<NodeRecord, "State"> & Props): ParkedState | undefined {
  if (record.State === "Deallocated" || record.State === "Deallocating") return "deallocated";
  if (record.State === "Terminated" && record.Fixed === true) return "off";
  return undefined;
}

/**
 * The power state a pool's nodes show, compared with the one `expected` (the stack's, or the one
 * an update was bringing about): every node in one state gives that state. A mix gives a state
 * other than `expected`, so that the next `up` carries the change on: running when a parked
 * pool has a node running, else the parked state found. Failed nodes count for neither (the pool
 * replaces them when it runs).
 */
export function observedPower(nodes: readonly { parked?: ParkedState; failed?: boolean }[], expected: PowerState): PowerState {
  const counted = nodes.filter((n) => !n.failed);
  const parked = counted.flatMap((n) => (n.parked ? [n.parked] : []));
  if (parked.length === 0) return "running";
  if (parked.length === counted.length && parked.every((p) => p === parked[0])) return parked[0];
  if (expected !== "running") return "running";
  return parked.includes("deallocated") ? "deallocated" : "off";
}

/**
 * Why a change of `powerState` (with the size) cannot be carried out, before any platform call:
 * off to deallocated (a terminated node has no VM to deallocate), and a new size for a pool that
 * stays parked (new nodes would start, and removing parked ones is a scale-down nobody sees run),
 * unless CycleCloud owns the size (`capacityOwner: "platform"`: the program's size is not applied).
 */
export function powerChangeFailures(olds: Props, news: Props): CheckFailure[] {
  const [from, to] = [powerOf(olds.powerState), news.powerState];
  if (isUnknown(to)) return [];
  const target = powerOf(to);
  if (from === "off" && target === "deallocated") {
    return [
      {
        property: "powerState",
        reason:
          'powerState cannot go from "off" to "deallocated": the nodes were terminated and have no VM to deallocate; allowed from "off": "running" ' +
          '(nodes/start), then "deallocated" in a later update',
      },
    ];
  }
  // A size CycleCloud owns is not the program's to change: nothing is resized (core/capacity.ts).
  if (from === "running" || target === "running" || platformOwnsCapacity(news)) return [];
  const size = ["count", "coreCount"].find((f) => news[f] !== undefined && !isUnknown(news[f]) && olds[f] !== undefined && news[f] !== olds[f]);
  if (!size) return [];
  return [
    {
      property: size,
      reason:
        `${size} cannot change from ${olds[size]} to ${news[size]} while the pool stays parked (powerState ${JSON.stringify(target)}): ` +
        'set powerState "running" in the same update (the nodes start, then the pool is resized) and park it again in a later one',
    },
  ];
}

/**
 * Why `off` would not keep the nodes, from their records: nodes/shutdown deallocates a node whose
 * `ShutdownPolicy` is Deallocate, and CycleCloud removes a terminated node's record unless it is
 * `Fixed`. Undefined when every node can be shut down and started again.
 */
export function offRefusal(records: readonly NodeRecord[]): string | undefined {
  const deallocating = records.filter((r) => r.ShutdownPolicy === "Deallocate").map((r) => r.Name);
  if (deallocating.length > 0) {
    return `node(s) ${deallocating.join(", ")} have ShutdownPolicy "Deallocate", so nodes/shutdown would deallocate them: use powerState "deallocated"`;
  }
  const unfixed = records.filter((r) => r.Fixed !== true).map((r) => r.Name);
  if (unfixed.length > 0) {
    return (
      `node(s) ${unfixed.join(", ")} are not Fixed, so CycleCloud would remove them once terminated: use powerState "deallocated", ` +
      "or create the pool with nodeAttributes { Fixed: true } (or a nodearray that sets it)"
    );
  }
  return undefined;
}

/**
 * The `powerState` to record for an observed power state: the program's own value when the nodes
 * show what it asks for (so an absent value stays absent), else the observed one, running as
 * absent (its default).
 */
export function recordedPower(observed: PowerState, given: unknown): PowerState | undefined {
  if (observed === powerOf(given)) return given === undefined ? undefined : observed;
  return observed === "running" ? undefined : observed;
}
