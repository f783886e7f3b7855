import { WorkflowState, type WorkflowType } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { PelotonEnv } from "./env";
import { liveInstances, moveWithoutRestart } from "./instance-ops";
import type { JobRecord } from "./job-store";
import type { InstanceDiff } from "./pod-specs";
import { isActive, transition, type WorkflowPolicy, type WorkflowRecord } from "./workflow-store";

/** What starting a workflow needs. */
export interface WorkflowStart {
  /** The job with its versions already moved to the workflow's. */
  job: JobRecord;
  type: WorkflowType;
  operation: string;
  fromConfig: number;
  prevVersion: string;
  policy: WorkflowPolicy;
  diff: InstanceDiff;
  restartBatchSize?: number;
  restartRanges?: Array<[number, number]>;
  opaqueData: string;
  t: number;
}

/** The policy of a workflow from the optional fields of UpdateSpec or CreateSpec. */
export function toPolicy(spec: Partial<WorkflowPolicy> | undefined): WorkflowPolicy {
  return {
    batchSize: spec?.batchSize ?? 0,
    maxInstanceRetries: spec?.maxInstanceRetries ?? 0,
    maxTolerableInstanceFailures: spec?.maxTolerableInstanceFailures ?? 0,
    rollbackOnFailure: spec?.rollbackOnFailure ?? false,
    startPaused: spec?.startPaused ?? false,
    inPlace: spec?.inPlace ?? false,
  };
}

/**
 * Starts a workflow on a job: a workflow still active is aborted (a new update replaces it),
 * instances whose pod spec does not change move to the new version without a restart, and the
 * others are queued in instance order.
 */
export function beginWorkflow(env: PelotonEnv, start: WorkflowStart): WorkflowRecord {
  const { job, t, diff } = start;
  for (const active of env.workflows.listForJob(job.id).filter(isActive)) {
    transition(active, WorkflowState.ABORTED, t);
    env.workflows.save(active);
  }
  const instances = liveInstances(env, env.runs.listForJob(job.id), t);
  for (const id of diff.unchanged) {
    const run = instances.get(id);
    if (run) moveWithoutRestart(env, run, job.configVersion, t);
  }
  const workflow: Omit<WorkflowRecord, "id"> = {
    jobId: job.id,
    type: start.type,
    state: WorkflowState.INITIALIZED,
    prevState: WorkflowState.INVALID,
    operation: start.operation,
    fromConfig: start.fromConfig,
    toConfig: job.configVersion,
    version: `${job.configVersion}-${job.desiredStateVersion}-${job.workflowVersion}`,
    prevVersion: start.prevVersion,
    policy: start.policy,
    restartBatchSize: start.restartBatchSize ?? 0,
    restartRanges: start.restartRanges ?? [],
    opaqueData: start.opaqueData,
    added: diff.added,
    removed: diff.removed,
    updated: diff.updated,
    startOnly: diff.added,
    removeOnly: diff.removed,
    todo: [...diff.added, ...diff.removed, ...diff.updated].sort((a, b) => a - b),
    current: [],
    done: [],
    failed: [],
    retries: {},
    rollback: false,
    createdMs: t,
    updatedMs: t,
    events: [{ state: WorkflowState.INITIALIZED, atMs: t }],
    instanceEvents: {},
  };
  transition(workflow as WorkflowRecord, WorkflowState.ROLLING_FORWARD, t);
  if (start.policy.startPaused) transition(workflow as WorkflowRecord, WorkflowState.PAUSED, t);
  return env.workflows.insert(workflow);
}
