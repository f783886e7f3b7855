import type { JobRecord } from "./job-store";
import { demandOf, podSpecFor } from "./pod-specs";
import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { FAIL_INSTANCE_ACTION, PELOTON_API, type PelotonEnv } from "./env";
import { hasEnded, podStateAt, type RunRecord } from "./runs";

/** What the fault registry's `fail-instance` pods fail with when the fault gives no message. */
const DEFAULT_FAILURE_MESSAGE = "container exited with code 1 while starting (simulated fail-instance fault)";

/** The newest pod of each instance created by `t`; `runs` ordered by id. */
export function latestRuns(runs: readonly RunRecord[], t: number): Map<number, RunRecord> {
  const latest = new Map<number, RunRecord>();
  for (const run of runs) {
    if (run.createdMs <= t && (latest.get(run.instanceId)?.id ?? -1) < run.id) latest.set(run.instanceId, run);
  }
  return latest;
}

/** Instances that exist at `t`: every instance except removed ones whose last pod has ended. */
export function liveInstances(env: PelotonEnv, runs: readonly RunRecord[], t: number): Map<number, RunRecord> {
  const latest = latestRuns(runs, t);
  for (const [id, run] of latest) if (run.removed && hasEnded(run, env.timing, t)) latest.delete(id);
  return latest;
}

/** What starting a pod needs. */
export interface RunStart {
  job: JobRecord;
  instanceId: number;
  configVersion: number;
  createdMs: number;
  /** The RPC the pod is started for: `fail-instance` faults are matched under it. */
  operation: string;
  /** The instance's pod before this one, if any. */
  previous?: RunRecord;
  /** Failures of the instance so far. @default the previous pod's count */
  failureCount?: number;
}

/** Starts a new pod of an instance; a matching `fail-instance` fault makes it fail to start. */
export function startRun(env: PelotonEnv, start: RunStart): RunRecord {
  const spec = env.jobs.findConfig(start.job.id, start.configVersion);
  const demand = spec ? demandOf(podSpecFor(spec, start.instanceId)) : {};
  const fault = env.faults.take({ api: PELOTON_API, operation: start.operation, target: start.job.id }, FAIL_INSTANCE_ACTION);
  return env.runs.insert({
    jobId: start.job.id,
    instanceId: start.instanceId,
    runNumber: (start.previous?.runNumber ?? 0) + 1,
    configVersion: start.configVersion,
    createdMs: start.createdMs,
    admittedMs: null,
    instant: false,
    fails: fault !== undefined,
    failureCount: start.failureCount ?? start.previous?.failureCount ?? 0,
    demand,
    message: fault ? (fault.message ?? DEFAULT_FAILURE_MESSAGE) : "",
  });
}

/**
 * Kills a pod at `t` unless it has ended; answers when it stops holding resources. A pod still
 * waiting for its pool ends at once, an admitted one after the killing time.
 */
export function killRun(env: PelotonEnv, run: RunRecord, t: number, removed = false): number {
  if (hasEnded(run, env.timing, t)) {
    if (removed) env.runs.kill(run.id, run.killMs ?? t, run.endMs ?? t, true);
    return t;
  }
  const endMs = run.admittedMs !== null && run.admittedMs <= t ? t + env.timing.killingMs : t;
  env.runs.kill(run.id, t, endMs, removed);
  return endMs;
}

/**
 * Moves an instance to a configuration version that needs no restart: a running pod hands over to
 * a new record of the same pod (same pod id) on the new version; a pod not running yet just
 * changes version.
 */
export function moveWithoutRestart(env: PelotonEnv, run: RunRecord, configVersion: number, t: number): void {
  if (run.configVersion === configVersion || hasEnded(run, env.timing, t)) return;
  if (podStateAt(run, env.timing, t) !== PodState.RUNNING) {
    env.runs.setConfigVersion(run.id, configVersion);
    return;
  }
  env.runs.handOver(run.id, t);
  env.runs.insert({ ...run, configVersion, createdMs: t, admittedMs: t, instant: true, fails: false });
}

/**
 * Kills every pod of an instance that has not ended, a retry scheduled for later included;
 * answers when the last of them stops holding resources.
 */
export function killInstance(env: PelotonEnv, jobId: string, instanceId: number, t: number, removed = false): number {
  const runs = env.runs.listForJob(jobId).filter((r) => r.instanceId === instanceId);
  const last = runs.at(-1);
  // A removed instance's last pod carries the mark even if it had already ended (failed).
  if (removed && last && hasEnded(last, env.timing, t)) killRun(env, last, t, true);
  const alive = runs.filter((r) => !hasEnded(r, env.timing, t));
  return alive.reduce((end, run) => Math.max(end, killRun(env, run, t, removed)), t);
}

/** What an instance is replaced with. */
export interface ReplaceTarget {
  job: JobRecord;
  instanceId: number;
  configVersion: number;
  operation: string;
}

/** Replaces an instance's pod by one on `configVersion`: kills the old one, starts the new one when it is gone. */
export function replaceRun(env: PelotonEnv, target: ReplaceTarget, run: RunRecord | undefined, t: number): void {
  const createdMs = killInstance(env, target.job.id, target.instanceId, t);
  const previous = env.runs.listForJob(target.job.id).filter((r) => r.instanceId === target.instanceId).at(-1) ?? run;
  startRun(env, { ...target, createdMs, previous });
}
