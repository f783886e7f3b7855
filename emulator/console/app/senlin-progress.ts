import type { SenlinAction, SenlinCluster } from "./types";

/** The cluster actions that add or remove members: their progress is how many members are in place. */
export const MEMBERSHIP_ACTIONS: ReadonlySet<string> = new Set([
  "CLUSTER_CREATE",
  "CLUSTER_RESIZE",
  "CLUSTER_SCALE_OUT",
  "CLUSTER_SCALE_IN",
  "CLUSTER_ADD_NODES",
  "CLUSTER_DEL_NODES",
]);

/** How far a running membership action has come, from the cluster's members as the plane reports them. */
export interface MembershipProgress {
  /** Members in place (ACTIVE and staying) over the members the cluster has until the action ends (desired plus those leaving). */
  value: number;
  /** e.g. `CLUSTER_RESIZE to 3 nodes: 1 of 3 active, 2 creating`. */
  detail: string;
}

/**
 * Whether an action in flight has started: the plane gives it a start time once it has (running,
 * waiting for its node actions, or ready again after them), none while it waits its turn.
 */
export function started(action: Pick<SenlinAction, "start_time">): boolean {
  return action.start_time !== null;
}

/**
 * The progress of `action` on `cluster`, or undefined when it is not a started membership action
 * (one still waiting its turn shows only its name and status). Members DELETING are on their way
 * out; the others count toward the desired capacity, ACTIVE ones as done.
 */
export function membershipProgress(action: SenlinAction, cluster: Pick<SenlinCluster, "desired_capacity" | "members">): MembershipProgress | undefined {
  if (!MEMBERSHIP_ACTIONS.has(action.action) || !started(action)) return undefined;
  const desired = cluster.desired_capacity;
  const leaving = cluster.members.filter((m) => m.status === "DELETING").length;
  const staying = cluster.members.filter((m) => m.status !== "DELETING");
  const active = staying.filter((m) => m.status === "ACTIVE").length;
  const others = new Map<string, number>();
  for (const m of staying) if (m.status !== "ACTIVE") others.set(m.status, (others.get(m.status) ?? 0) + 1);
  const parts = [`${active} of ${desired} active`, ...[...others].map(([status, n]) => `${n} ${status.toLowerCase()}`), ...(leaving ? [`${leaving} deleting`] : [])];
  return {
    value: active / Math.max(1, desired + leaving),
    detail: `${action.action} to ${desired} node${desired === 1 ? "" : "s"}: ${parts.join(", ")}`,
  };
}
