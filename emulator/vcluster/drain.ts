import type { DatabaseSync } from "node:sqlite";
import type { OperationRecord } from "./store";

/**
 * The workloads a vcluster runs, as the plane models them: a number of pods, evicted one at a
 * time by a drain (as a PodDisruptionBudget of `maxUnavailable: 1` allows), each eviction taking
 * {@link EVICTION_SECONDS} simulated seconds. A vcluster nobody set a count for runs
 * {@link DEFAULT_PODS}; `POST /_local/vcluster/workloads` sets another.
 */
export const DEFAULT_PODS = 2;

/** Simulated seconds one pod takes to be evicted (its termination grace period), at time scale 1. */
export const EVICTION_SECONDS = 2;

/** The most pods a test may give a vcluster. */
export const MAX_PODS = 10_000;

/** `status.reason` while a drain runs, and after it timed out (the vcluster stays RUNNING). */
export const DRAIN_REASON = { draining: "Draining", timedOut: "DrainTimeout" } as const;

/** The pod counts of vclusters; a vcluster without a row runs {@link DEFAULT_PODS}. */
export class WorkloadStore {
  constructor(private readonly db: DatabaseSync) {}

  /** How many pods the vcluster runs while RUNNING. */
  podsOf(clusterId: string): number {
    const row = this.db.prepare("SELECT pods FROM vcluster_workloads WHERE cluster_id = ?").get(clusterId);
    return row ? Number(row.pods) : DEFAULT_PODS;
  }

  /** Sets how many pods the vcluster runs. */
  setPods(clusterId: string, pods: number): void {
    this.db.prepare("INSERT INTO vcluster_workloads (cluster_id, pods) VALUES (?, ?) ON CONFLICT(cluster_id) DO UPDATE SET pods = excluded.pods").run(clusterId, pods);
  }

  /** Forgets a deleted vcluster's pods. */
  remove(clusterId: string): void {
    this.db.prepare("DELETE FROM vcluster_workloads WHERE cluster_id = ?").run(clusterId);
  }
}

/** How a drain of `pods` pods with a timeout (0: none, as `kubectl drain --timeout=0`) turns out, in simulated seconds. */
export interface DrainPlan {
  /** Simulated seconds until the drain ends: every pod evicted, or the timeout reached. */
  seconds: number;
  timedOut: boolean;
  /** Pods evicted by the end. */
  evicted: number;
}

/** The drain of `pods` pods under `timeoutSeconds`; decided when it starts, as every operation of the plane. */
export function planDrain(pods: number, timeoutSeconds: number): DrainPlan {
  const needed = pods * EVICTION_SECONDS;
  if (timeoutSeconds > 0 && needed > timeoutSeconds) {
    return { seconds: timeoutSeconds, timedOut: true, evicted: Math.floor(timeoutSeconds / EVICTION_SECONDS) };
  }
  return { seconds: needed, timedOut: false, evicted: pods };
}

/** Pods a drain in flight has evicted at `nowMs`. */
export function evictedAt(op: OperationRecord, nowMs: number, timeScale: number): number {
  const pods = op.payload.pods ?? 0;
  const perPodMs = EVICTION_SECONDS * 1000 * timeScale;
  if (perPodMs <= 0) return pods;
  return Math.min(pods, Math.floor((nowMs - op.startMs) / perPodMs));
}

/** The status message of a vcluster whose drain is under way. */
export function drainingMessage(op: OperationRecord, nowMs: number, timeScale: number): string {
  const timeout = op.payload.timeoutSeconds ? `, timeout ${op.payload.timeoutSeconds}s` : "";
  return `draining workloads before suspending: ${evictedAt(op, nowMs, timeScale)} of ${op.payload.pods ?? 0} pods evicted${timeout}`;
}

/**
 * The message a timed-out drain leaves on the vcluster: what was evicted, that the control plane
 * was not stopped, that evicted pods are scheduled again, and the snapshot taken before, if any.
 */
export function drainTimeoutMessage(pods: number, plan: DrainPlan, timeoutSeconds: number, snapshotId?: string): string {
  const kept = snapshotId ? `; the snapshot ${snapshotId} taken before the drain is kept` : "";
  return (
    `drain timed out after ${timeoutSeconds}s with ${pods - plan.evicted} of ${pods} pods not evicted: ` +
    `the vcluster was not suspended and keeps running, and the ${plan.evicted} evicted pods are scheduled again${kept}`
  );
}
