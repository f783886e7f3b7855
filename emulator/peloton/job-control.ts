import { WorkflowState } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { OpaqueData } from "../../proto/gen/peloton/api/v1alpha/peloton_pb";
import type { PelotonEnv } from "./env";
import { assertCurrentVersion } from "./errors";
import type { ServiceHandlers } from "./handler-types";
import { killInstance, latestRuns, startRun } from "./instance-ops";
import type { JobRecord, MutableJobFields } from "./job-store";
import { mustFindJob } from "./job-validation";
import { jobVersion } from "./job-view";
import { hasEnded } from "./runs";
import { isActive, ROLLING_STATES, transition, type WorkflowRecord } from "./workflow-store";

type Handlers = ServiceHandlers<typeof JobService>;

interface VersionedRequest {
  jobId?: { value: string };
  version?: { value: string };
  opaqueData?: OpaqueData;
}

/** Loads the job a request names and checks its entity version. */
function loadVersioned(env: PelotonEnv, request: VersionedRequest): JobRecord {
  const job = mustFindJob(env, request.jobId?.value ?? "");
  assertCurrentVersion(job, request.version?.value ?? "");
  return job;
}

function updateJob(env: PelotonEnv, job: JobRecord, fields: MutableJobFields): JobRecord {
  const next = { ...job, ...fields, revision: job.revision + 1, updatedMs: env.clock.now() };
  env.jobs.update(job.id, { ...fields, revision: next.revision, updatedMs: next.updatedMs });
  return next;
}

/** What a workflow control call does to a workflow in a given state; undefined leaves it alone. */
type WorkflowMove = (wf: WorkflowRecord) => WorkflowState | undefined;

const MOVES: Readonly<Record<"pause" | "resume" | "abort", WorkflowMove>> = {
  pause: (wf) => (ROLLING_STATES.has(wf.state) ? WorkflowState.PAUSED : undefined),
  resume: (wf) =>
    wf.state !== WorkflowState.PAUSED
      ? undefined
      : ROLLING_STATES.has(wf.prevState)
        ? wf.prevState
        : WorkflowState.ROLLING_FORWARD,
  abort: (wf) => (isActive(wf) ? WorkflowState.ABORTED : undefined),
};

/**
 * Pause, resume or abort the job's current workflow. Without a workflow to act on the call is a
 * no-op that answers the current version; otherwise the workflow version moves on and the
 * request's opaque data is stored on the workflow.
 */
function controlWorkflow(env: PelotonEnv, request: VersionedRequest, move: WorkflowMove): { version: { value: string } } {
  const job = loadVersioned(env, request);
  const wf = env.workflows.latest(job.id);
  const state = wf ? move(wf) : undefined;
  if (!wf || state === undefined) return { version: { value: jobVersion(job) } };
  const next = updateJob(env, job, { workflowVersion: job.workflowVersion + 1 });
  transition(wf, state, env.clock.now());
  if (request.opaqueData) wf.opaqueData = request.opaqueData.data;
  wf.version = jobVersion(next);
  env.workflows.save(wf);
  return { version: { value: jobVersion(next) } };
}

/** JobService calls that pause, resume or abort workflows and start or stop pods. */
export function createJobControl(
  env: PelotonEnv,
): Pick<Handlers, "pauseJobWorkflow" | "resumeJobWorkflow" | "abortJobWorkflow" | "startJob" | "stopJob"> {
  return {
    pauseJobWorkflow: (request) => controlWorkflow(env, request, MOVES.pause),
    resumeJobWorkflow: (request) => controlWorkflow(env, request, MOVES.resume),
    abortJobWorkflow: (request) => controlWorkflow(env, request, MOVES.abort),
    stopJob(request) {
      const job = loadVersioned(env, request);
      const now = env.clock.now();
      const next = updateJob(env, job, { desiredState: "KILLED", desiredStateVersion: job.desiredStateVersion + 1 });
      for (const instanceId of latestRuns(env.runs.listForJob(job.id), Number.POSITIVE_INFINITY).keys()) {
        killInstance(env, job.id, instanceId, now);
      }
      return { version: { value: jobVersion(next) } };
    },
    startJob(request) {
      const job = loadVersioned(env, request);
      const now = env.clock.now();
      const next = updateJob(env, job, { desiredState: "RUNNING", desiredStateVersion: job.desiredStateVersion + 1 });
      const count = env.jobs.findConfig(job.id, job.configVersion)?.instanceCount ?? 0;
      const latest = latestRuns(env.runs.listForJob(job.id), Number.POSITIVE_INFINITY);
      for (let instanceId = 0; instanceId < count; instanceId++) {
        const previous = latest.get(instanceId);
        if (previous && !hasEnded(previous, env.timing, now)) continue;
        startRun(env, { job: next, instanceId, configVersion: job.configVersion, createdMs: now, operation: "StartJob", previous });
      }
      return { version: { value: jobVersion(next) } };
    },
  };
}
