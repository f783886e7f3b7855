import type { DatabaseSync } from "node:sqlite";
import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { admissionEarliestMs, launchMs, launchStateAt, type Timing } from "./timing";

/** What a pod asks of its resource pool, per resource kind (`cpu`, `memory`, `disk`, `gpu`). */
export type Demand = Readonly<Record<string, number>>;

/** One run of one instance: a pod, from creation to its end. Its state is derived from its times. */
export interface RunRecord {
  id: number;
  jobId: string;
  instanceId: number;
  /** 1 for the instance's first pod; a pod ID is `<jobId>-<instanceId>-<runNumber>`. */
  runNumber: number;
  configVersion: number;
  createdMs: number;
  /** When the resource pool admitted the pod; null while it waits (PENDING). */
  admittedMs: number | null;
  /** A pod that takes over a running one without restarting (a config change that needs none). */
  instant: boolean;
  /** The pod fails when its launch ends (a `fail-instance` fault). */
  fails: boolean;
  killMs: number | null;
  /** When the pod stopped holding resources (killed, failed or handed over); null while it lives. */
  endMs: number | null;
  /** Ended by a hand-over to a newer pod of the same instance, not by a kill. */
  handover: boolean;
  failureHandled: boolean;
  failureCount: number;
  /** The instance was removed by an update: this pod is its last. */
  removed: boolean;
  demand: Demand;
  message: string;
}

type Row = Record<string, unknown>;

const nullableNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toRun(row: Row): RunRecord {
  return {
    id: Number(row.id),
    jobId: String(row.job_id),
    instanceId: Number(row.instance_id),
    runNumber: Number(row.run_number),
    configVersion: Number(row.config_version),
    createdMs: Number(row.created_ms),
    admittedMs: nullableNumber(row.admitted_ms),
    instant: Number(row.instant) === 1,
    fails: Number(row.fails) === 1,
    killMs: nullableNumber(row.kill_ms),
    endMs: nullableNumber(row.end_ms),
    handover: Number(row.handover) === 1,
    failureHandled: Number(row.failure_handled) === 1,
    failureCount: Number(row.failure_count),
    removed: Number(row.removed) === 1,
    demand: JSON.parse(String(row.demand)) as Demand,
    message: String(row.message),
  };
}

/** When a pod that fails does so, or undefined for one that does not fail (or is killed first). */
export function failureMs(run: RunRecord, timing: Timing): number | undefined {
  if (!run.fails || run.admittedMs === null || run.instant) return undefined;
  const at = run.admittedMs + launchMs(timing);
  return run.killMs !== null && run.killMs <= at ? undefined : at;
}

/** When the pod reaches RUNNING, or undefined if it never does. */
export function runningMs(run: RunRecord, timing: Timing): number | undefined {
  if (run.admittedMs === null || run.fails) return undefined;
  const at = run.instant ? run.admittedMs : run.admittedMs + launchMs(timing);
  return run.killMs !== null && run.killMs <= at ? undefined : at;
}

/** The pod's state at `t` (t >= createdMs). */
export function podStateAt(run: RunRecord, timing: Timing, t: number): PodState {
  if (run.killMs !== null && t >= run.killMs) {
    return run.endMs !== null && t >= run.endMs ? PodState.KILLED : PodState.KILLING;
  }
  if (run.admittedMs === null || t < run.admittedMs) {
    return t < run.createdMs + timing.initializedMs ? PodState.INITIALIZED : PodState.PENDING;
  }
  if (run.instant) return PodState.RUNNING;
  const launching = launchStateAt(timing, t - run.admittedMs);
  if (launching !== undefined) return launching;
  return run.fails ? PodState.FAILED : PodState.RUNNING;
}

/** Whether the pod holds its resource pool's resources at `t`. */
export function isHolding(run: RunRecord, t: number): boolean {
  return run.admittedMs !== null && run.admittedMs <= t && (run.endMs === null || t < run.endMs);
}

/** Whether the pod has ended (killed, failed or handed over) by `t`. */
export function hasEnded(run: RunRecord, timing: Timing, t: number): boolean {
  if (run.endMs !== null && run.endMs <= t) return true;
  const failed = failureMs(run, timing);
  return failed !== undefined && failed <= t;
}

/** The times at which this pod changes something the simulation acts on. */
export function eventTimes(run: RunRecord, timing: Timing): number[] {
  const times: number[] = [];
  if (run.admittedMs === null && run.killMs === null) times.push(admissionEarliestMs(timing, run.createdMs));
  for (const t of [runningMs(run, timing), failureMs(run, timing), run.endMs ?? undefined]) {
    if (t !== undefined) times.push(t);
  }
  return [...new Set(times)];
}

/** A new pod, as {@link RunStore.insert} takes it. */
export type NewRun = Omit<RunRecord, "id" | "killMs" | "endMs" | "handover" | "failureHandled" | "removed">;

/** SQL access to pods. */
export class RunStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Every pod of a job, oldest first. */
  listForJob(jobId: string): RunRecord[] {
    return this.db
      .prepare("SELECT * FROM peloton_runs WHERE job_id = ? ORDER BY instance_id, id")
      .all(jobId)
      .map((r) => toRun(r as Row));
  }

  /** Every pod that has not ended by `t`, or whose end is still to be acted on. */
  listLive(t: number): RunRecord[] {
    return this.db
      .prepare("SELECT * FROM peloton_runs WHERE end_ms IS NULL OR end_ms >= ? OR (fails = 1 AND failure_handled = 0) ORDER BY created_ms, id")
      .all(t)
      .map((r) => toRun(r as Row));
  }

  /** Records a new pod and returns it. */
  insert(run: NewRun): RunRecord {
    const result = this.db
      .prepare(
        `INSERT INTO peloton_runs (job_id, instance_id, run_number, config_version, created_ms, admitted_ms, instant, fails,
           failure_count, demand, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        run.jobId,
        run.instanceId,
        run.runNumber,
        run.configVersion,
        run.createdMs,
        run.admittedMs,
        Number(run.instant),
        Number(run.fails),
        run.failureCount,
        JSON.stringify(run.demand),
        run.message,
      );
    const row = this.db.prepare("SELECT * FROM peloton_runs WHERE id = ?").get(Number(result.lastInsertRowid));
    return toRun(row as Row);
  }

  /** Marks a pod admitted at `t`; a pod that fails ends when its launch does. */
  admit(id: number, t: number, endMs: number | null): void {
    this.db.prepare("UPDATE peloton_runs SET admitted_ms = ?, end_ms = ? WHERE id = ?").run(t, endMs, id);
  }

  /** Kills a pod at `t`; it stops holding resources at `endMs`. */
  kill(id: number, t: number, endMs: number, removed = false): void {
    this.db
      .prepare("UPDATE peloton_runs SET kill_ms = ?, end_ms = ?, removed = MAX(removed, ?) WHERE id = ?")
      .run(t, endMs, Number(removed), id);
  }

  /** Ends a running pod at `t` because a newer pod of the same instance takes over. */
  handOver(id: number, t: number): void {
    this.db.prepare("UPDATE peloton_runs SET end_ms = ?, handover = 1 WHERE id = ?").run(t, id);
  }

  /** Moves a pod that has not started yet to another configuration version. */
  setConfigVersion(id: number, version: number): void {
    this.db.prepare("UPDATE peloton_runs SET config_version = ? WHERE id = ?").run(version, id);
  }

  /** Records that a failed pod was acted on. */
  markFailureHandled(id: number): void {
    this.db.prepare("UPDATE peloton_runs SET failure_handled = 1 WHERE id = ?").run(id);
  }

  /** Removes every pod of a job. */
  deleteForJob(jobId: string): void {
    this.db.prepare("DELETE FROM peloton_runs WHERE job_id = ?").run(jobId);
  }
}
