import { WorkflowState } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import type { PelotonEnv } from "./env";
import { formatEntityVersion } from "./errors";
import { killInstance, liveInstances, moveWithoutRestart, replaceRun } from "./instance-ops";
import type { JobRecord } from "./job-store";
import { hasEnded, podStateAt, type RunRecord } from "./runs";
import { instanceEvent, ROLLING_STATES, transition, type WorkflowRecord } from "./workflow-store";

/** Whether an instance the workflow is working on has reached the workflow's target. */
function isFinished(env: PelotonEnv, wf: WorkflowRecord, run: RunRecord | undefined, instanceId: number, t: number): boolean {
  if (wf.removeOnly.includes(instanceId)) return run === undefined || hasEnded(run, env.timing, t);
  return run !== undefined && run.configVersion === wf.toConfig && podStateAt(run, env.timing, t) === PodState.RUNNING;
}

/**
 * Turns a failed update into its rollback: a new configuration version copies the old spec, and
 * every instance not on the old spec any more is rolled back the same way, batch by batch.
 */
function startRollback(env: PelotonEnv, job: JobRecord, wf: WorkflowRecord, t: number): void {
  const oldSpec = env.jobs.findConfig(job.id, wf.fromConfig);
  const version = job.configVersion + 1;
  if (oldSpec) env.jobs.insertConfig(job.id, version, oldSpec, t);
  const targetCount = oldSpec?.instanceCount ?? 0;
  const instances = liveInstances(env, env.runs.listForJob(job.id), t);
  const startOnly: number[] = [];
  const removeOnly: number[] = [];
  const todo: number[] = [];
  for (let i = 0; i < Math.max(targetCount, ...[...instances.keys()].map((k) => k + 1)); i++) {
    const run = instances.get(i);
    if (i >= targetCount) {
      if (run) removeOnly.push(i);
    } else if (!run) {
      startOnly.push(i);
    } else if (run.configVersion === wf.fromConfig) {
      moveWithoutRestart(env, run, version, t);
      continue;
    }
    if (i < targetCount || run) todo.push(i);
  }
  env.jobs.update(job.id, { configVersion: version, updatedMs: t, revision: job.revision + 1 });
  Object.assign(wf, { rollback: true, toConfig: version, startOnly, removeOnly, todo, current: [], done: [], failed: [], retries: {} });
  wf.version = formatEntityVersion({ ...job, configVersion: version });
  transition(wf, WorkflowState.ROLLING_BACKWARD, t);
}

/** Ends the workflow, or rolls it back, when it has failed more instances than it tolerates. */
function checkTolerance(env: PelotonEnv, job: JobRecord, wf: WorkflowRecord, t: number): boolean {
  const limit = wf.policy.maxTolerableInstanceFailures;
  if (limit === 0 || wf.failed.length <= limit) return false;
  if (wf.policy.rollbackOnFailure && !wf.rollback) startRollback(env, job, wf, t);
  else transition(wf, WorkflowState.FAILED, t);
  return true;
}

/** Starts the next instances: at most `batch_size` in flight and `maximum_unavailable_instances` down. */
function startNext(env: PelotonEnv, job: JobRecord, wf: WorkflowRecord, instances: Map<number, RunRecord>, t: number): boolean {
  const spec = env.jobs.findConfig(job.id, wf.toConfig);
  const batchLimit = wf.policy.batchSize || Number.POSITIVE_INFINITY;
  const maxUnavailable = spec?.sla?.maximumUnavailableInstances || Number.POSITIVE_INFINITY;
  const freeOfSla = (i: number) => wf.startOnly.includes(i) || wf.removeOnly.includes(i);
  let unavailable = [...instances].filter(
    ([i, run]) => !freeOfSla(i) && podStateAt(run, env.timing, t) !== PodState.RUNNING,
  ).length;
  let started = false;
  while (wf.todo.length > 0 && wf.current.length < batchLimit) {
    const instanceId = wf.todo[0];
    const run = instances.get(instanceId);
    // An instance that is down already (a failed pod a rollback restores) takes nothing more down:
    // counting it would let failed instances block their own repair.
    const takesDown = !freeOfSla(instanceId) && run !== undefined && podStateAt(run, env.timing, t) === PodState.RUNNING;
    if (takesDown && unavailable >= maxUnavailable) break;
    if (wf.removeOnly.includes(instanceId)) {
      if (run) killInstance(env, job.id, instanceId, t, true);
    } else {
      replaceRun(env, { job, instanceId, configVersion: wf.toConfig, operation: wf.operation }, run, t);
    }
    if (takesDown) unavailable++;
    instanceEvent(wf, instanceId, wf.state, t);
    wf.todo.shift();
    wf.current.push(instanceId);
    started = true;
  }
  return started;
}

/**
 * Advances one workflow at `t`: settles finished instances, applies the failure tolerance, ends
 * the workflow when nothing is left, and starts the next instances while it rolls. Answers whether
 * anything changed.
 */
export function stepWorkflow(env: PelotonEnv, wf: WorkflowRecord, t: number): boolean {
  const job = env.jobs.find(wf.jobId);
  if (!job || job.desiredState === "KILLED") return false;
  const instances = liveInstances(env, env.runs.listForJob(job.id), t);
  let changed = false;
  for (const instanceId of [...wf.current]) {
    if (!isFinished(env, wf, instances.get(instanceId), instanceId, t)) continue;
    wf.current = wf.current.filter((i) => i !== instanceId);
    wf.done.push(instanceId);
    instanceEvent(wf, instanceId, WorkflowState.SUCCEEDED, t);
    changed = true;
  }
  if (checkTolerance(env, job, wf, t)) {
    changed = true;
  } else if (wf.todo.length === 0 && wf.current.length === 0) {
    const end = wf.rollback ? WorkflowState.ROLLED_BACK : WorkflowState.SUCCEEDED;
    transition(wf, end, t);
    changed = true;
  } else if (ROLLING_STATES.has(wf.state)) {
    changed = startNext(env, job, wf, instances, t) || changed;
  }
  if (changed) {
    wf.updatedMs = t;
    env.workflows.save(wf);
  }
  return changed;
}
