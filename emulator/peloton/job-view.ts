import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  JobState,
  type JobStatusSchema,
  type JobSummarySchema,
  type WorkflowInfoSchema,
} from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { ContainerState, PodState, PodStateSchema, type PodStatusSchema } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import type { PelotonEnv } from "./env";
import { formatEntityVersion } from "./errors";
import { liveInstances } from "./instance-ops";
import type { JobRecord } from "./job-store";
import { podSpecFor, toRanges } from "./pod-specs";
import { hasEnded, podStateAt, type RunRecord, runningMs } from "./runs";
import type { WorkflowRecord } from "./workflow-store";

/** RFC 3339 in UTC without fractions, as Go's time.RFC3339 formats it. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A job's entity version. */
export function jobVersion(job: JobRecord): string {
  return formatEntityVersion(job);
}

const TERMINAL: ReadonlySet<PodState> = new Set([PodState.KILLED, PodState.FAILED, PodState.SUCCEEDED]);

/** Container states matching each pod state; unlisted pod states have containers not created yet. */
const CONTAINER_STATE: Partial<Record<PodState, ContainerState>> = {
  [PodState.LAUNCHED]: ContainerState.LAUNCHED,
  [PodState.STARTING]: ContainerState.STARTING,
  [PodState.RUNNING]: ContainerState.RUNNING,
  [PodState.FAILED]: ContainerState.FAILED,
  [PodState.KILLING]: ContainerState.KILLING,
  [PodState.KILLED]: ContainerState.KILLED,
};

/** One instance of a job and its current pod at a moment. */
export interface InstanceView {
  instanceId: number;
  run: RunRecord;
  state: PodState;
}

/** The instances of a job at `t`, by instance id. */
export function instanceViews(env: PelotonEnv, job: JobRecord, t: number): InstanceView[] {
  const instances = liveInstances(env, env.runs.listForJob(job.id), t);
  return [...instances]
    .sort(([a], [b]) => a - b)
    .map(([instanceId, run]) => ({ instanceId, run, state: podStateAt(run, env.timing, t) }));
}

/** The job state upstream derives from its pods and goal. */
export function deriveJobState(job: JobRecord, states: readonly PodState[]): JobState {
  if (job.desiredState === "KILLED") {
    return states.every((s) => TERMINAL.has(s)) ? JobState.KILLED : JobState.KILLING;
  }
  if (states.length === 0 || states.some((s) => s === PodState.RUNNING)) return JobState.RUNNING;
  if (states.every((s) => s === PodState.INITIALIZED)) return JobState.INITIALIZED;
  if (states.every((s) => s === PodState.FAILED)) return JobState.FAILED;
  return JobState.PENDING;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** A workflow's status message. */
export function workflowStatus(wf: WorkflowRecord): MessageInitShape<typeof WorkflowInfoSchema>["status"] {
  return {
    type: wf.type,
    state: wf.state,
    prevState: wf.prevState,
    numInstancesCompleted: wf.done.length,
    numInstancesRemaining: wf.todo.length + wf.current.length,
    numInstancesFailed: wf.failed.length,
    instancesCurrent: [...wf.current],
    version: { value: wf.version },
    prevVersion: { value: wf.prevVersion },
    creationTime: rfc3339(wf.createdMs),
    updateTime: rfc3339(wf.updatedMs),
  };
}

const rangeMessages = (ids: readonly number[]) => toRanges(ids).map(([from, to]) => ({ from, to }));

/** A workflow as WorkflowInfo. */
export function workflowInfo(wf: WorkflowRecord): MessageInitShape<typeof WorkflowInfoSchema> {
  return {
    status: workflowStatus(wf),
    updateSpec: {
      batchSize: wf.policy.batchSize,
      rollbackOnFailure: wf.policy.rollbackOnFailure,
      maxInstanceRetries: wf.policy.maxInstanceRetries,
      maxTolerableInstanceFailures: wf.policy.maxTolerableInstanceFailures,
      startPaused: wf.policy.startPaused,
      inPlace: wf.policy.inPlace,
    },
    restartBatchSize: wf.restartBatchSize,
    restartRanges: wf.restartRanges.map(([from, to]) => ({ from, to })),
    opaqueData: { data: wf.opaqueData },
    events: [...wf.events].reverse().map((e) => ({ type: wf.type, state: e.state, timestamp: rfc3339(e.atMs) })),
    instancesAdded: rangeMessages(wf.added),
    instancesRemoved: rangeMessages(wf.removed),
    instancesUpdated: rangeMessages(wf.updated),
  };
}

/** A job's runtime status at `t`. */
export function jobStatus(env: PelotonEnv, job: JobRecord, t: number): MessageInitShape<typeof JobStatusSchema> {
  const views = instanceViews(env, job, t);
  const wf = env.workflows.latest(job.id);
  return {
    revision: { version: BigInt(job.revision), createdAt: BigInt(job.createdMs), updatedAt: BigInt(job.updatedMs), updatedBy: "peloton" },
    state: deriveJobState(job, views.map((v) => v.state)),
    creationTime: rfc3339(job.createdMs),
    podStats: countBy(views, (v) => PodStateSchema.value[v.state].name),
    desiredState: job.desiredState === "KILLED" ? JobState.KILLED : JobState.RUNNING,
    version: { value: jobVersion(job) },
    workflowStatus: wf ? workflowStatus(wf) : undefined,
    podConfigurationVersionStats: countBy(views, (v) => String(v.run.configVersion)),
  };
}

/** A job's summary at `t`. */
export function jobSummary(env: PelotonEnv, job: JobRecord, t: number): MessageInitShape<typeof JobSummarySchema> {
  const spec = env.jobs.findConfig(job.id, job.configVersion);
  return {
    jobId: { value: job.id },
    name: job.name,
    owner: spec?.owner ?? "",
    owningTeam: spec?.owningTeam ?? "",
    labels: spec?.labels.map(({ key, value }) => ({ key, value })) ?? [],
    instanceCount: spec?.instanceCount ?? 0,
    respoolId: { value: job.respoolId },
    status: jobStatus(env, job, t),
  };
}

/** The host a pod is placed on: instances spread over a fixed set of simulated hosts. */
export function hostOf(run: RunRecord): string {
  return `peloton-host-${(run.instanceId + run.runNumber) % 8}`;
}

/** A pod's status at `t`. */
export function podStatus(env: PelotonEnv, job: JobRecord, view: InstanceView, t: number): MessageInitShape<typeof PodStatusSchema> {
  const { run, state } = view;
  const spec = env.jobs.findConfig(job.id, run.configVersion);
  const podId = (n: number) => ({ value: `${job.id}-${view.instanceId}-${n}` });
  const placed = run.admittedMs !== null && run.admittedMs <= t;
  const started = runningMs(run, env.timing);
  const ended = hasEnded(run, env.timing, t);
  const completion = ended ? (run.endMs ?? t) : undefined;
  const containerState = CONTAINER_STATE[state] ?? ContainerState.PENDING;
  const containers = spec ? podSpecFor(spec, view.instanceId).containers : [];
  return {
    state,
    podId: podId(run.runNumber),
    startTime: started !== undefined && started <= t ? rfc3339(started) : "",
    completionTime: completion !== undefined ? rfc3339(completion) : "",
    host: placed ? hostOf(run) : "",
    agentId: placed ? { value: `agent-${hostOf(run)}` } : undefined,
    containersStatus: containers.map((c) => ({
      name: c.name,
      state: containerState,
      image: c.container?.docker?.image ?? "",
      message: state === PodState.FAILED ? run.message : "",
      failureCount: run.failureCount,
    })),
    desiredState: job.desiredState === "KILLED" || run.removed ? PodState.KILLED : PodState.RUNNING,
    message: state === PodState.FAILED ? run.message : "",
    reason: state === PodState.FAILED ? "REASON_COMMAND_EXECUTOR_FAILED" : "",
    failureCount: run.failureCount,
    version: { value: `${run.configVersion}-0-0` },
    desiredVersion: { value: `${job.configVersion}-0-0` },
    revision: { version: BigInt(run.id), createdAt: BigInt(run.createdMs), updatedAt: BigInt(t), updatedBy: "peloton" },
    prevPodId: run.runNumber > 1 ? podId(run.runNumber - 1) : undefined,
    desiredPodId: podId(run.runNumber),
  };
}
