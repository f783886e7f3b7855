import type { PelotonClient } from "../../../clients/peloton/client";
import type { JobDetail } from "../../../clients/peloton/job-methods";
import { JobState, WorkflowState } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { Deadline } from "../../../core/deadline";
import { toJobSpec, toUpdateSpec, opaqueFor } from "./job-spec";
import { ACTIVE_WORKFLOW, latestWorkflow } from "./job-status";
import { mutateJob } from "./mutate";
import type { StatelessJobInputs } from "./schema";
import { type PoolContext, waitForJobState, waitForWorkflow } from "./wait";

const q = JSON.stringify;

/** What every step of a rollout needs. */
export interface RolloutContext {
  client: PelotonClient;
  jobId: string;
  deadline: Deadline;
  progress?: (message: string) => void;
  /** Shows a lasting warning on the resource's row. @default none */
  warn?: (message: string) => Promise<void>;
}

/** The pool context of a job's waits. */
export function poolOf(inputs: StatelessJobInputs): PoolContext {
  return { respoolId: inputs.respoolId, instanceCount: inputs.instanceCount, defaultSpec: inputs.defaultSpec };
}

/** The `opaque_data` of the workflow that rolls the job to these inputs' configuration. */
export function specOpaque(inputs: StatelessJobInputs): string {
  return opaqueFor("spec", toJobSpec(inputs));
}

/** True when the job's latest workflow is ours and still moving or done. */
function rollingOrDone(detail: JobDetail, opaque: string): boolean {
  const wf = latestWorkflow(detail);
  return wf !== undefined && wf.opaque === opaque && (ACTIVE_WORKFLOW.has(wf.state) || wf.state === WorkflowState.SUCCEEDED);
}

/**
 * Rolls the job to the inputs' configuration: exactly one ReplaceJob with the update policy, then
 * a wait for its workflow. A workflow already rolling to this configuration (its `opaque_data`
 * holds the digest: an interrupted `up` started it) is waited for instead of started again.
 * @param wait - false for a stopped job: it takes the configuration when it starts again.
 */
export async function rollTo(rc: RolloutContext, inputs: StatelessJobInputs, wait: boolean, first?: JobDetail): Promise<void> {
  const spec = toJobSpec(inputs);
  const opaque = opaqueFor("spec", spec);
  await mutateJob(
    rc.client,
    rc.jobId,
    {
      operation: `ReplaceJob job ${q(rc.jobId)}`,
      needed: (d) => !rollingOrDone(d, opaque),
      send: (ref) => rc.client.replaceJob(ref, spec, { updateSpec: toUpdateSpec(inputs.updatePolicy), opaqueData: opaque, deadline: rc.deadline }),
    },
    rc.deadline,
    first,
    rc.warn,
  );
  if (!wait) return;
  await waitForWorkflow(rc.client, rc.jobId, opaque, {
    what: `the rolling update of job ${q(rc.jobId)} (batch size ${toUpdateSpec(inputs.updatePolicy).batchSize})`,
    deadline: rc.deadline,
    pool: poolOf(inputs),
    progress: rc.progress,
  });
}

/** Restarts every instance in batches (RestartJob), once per `restartNonce`, and waits for it. */
export async function restart(rc: RolloutContext, inputs: StatelessJobInputs): Promise<void> {
  const opaque = opaqueFor("restart", { jobId: rc.jobId, nonce: inputs.restartNonce });
  const batchSize = toUpdateSpec(inputs.updatePolicy).batchSize;
  await mutateJob(
    rc.client,
    rc.jobId,
    {
      operation: `RestartJob job ${q(rc.jobId)}`,
      needed: (d) => !rollingOrDone(d, opaque),
      send: (ref) => rc.client.restartJob(ref, { batchSize, opaqueData: opaque, deadline: rc.deadline }),
    },
    rc.deadline,
    undefined,
    rc.warn,
  );
  await waitForWorkflow(rc.client, rc.jobId, opaque, {
    what: `the restart of job ${q(rc.jobId)} (batch size ${batchSize})`,
    deadline: rc.deadline,
    pool: poolOf(inputs),
    progress: rc.progress,
  });
}

/** StopJob or StartJob, then a wait for KILLED or for every instance RUNNING. */
export async function setRunState(rc: RolloutContext, inputs: StatelessJobInputs, goal: "RUNNING" | "KILLED"): Promise<JobDetail> {
  const want = goal === "KILLED" ? JobState.KILLED : JobState.RUNNING;
  await mutateJob(
    rc.client,
    rc.jobId,
    {
      operation: `${goal === "KILLED" ? "StopJob" : "StartJob"} job ${q(rc.jobId)}`,
      needed: (d) => d.jobInfo?.status?.desiredState !== want,
      send: (ref) => (goal === "KILLED" ? rc.client.stopJob(ref, { deadline: rc.deadline }) : rc.client.startJob(ref, { deadline: rc.deadline })),
    },
    rc.deadline,
  );
  return waitForJobState(rc.client, rc.jobId, goal, inputs.instanceCount, {
    deadline: rc.deadline,
    pool: goal === "RUNNING" ? poolOf(inputs) : undefined,
    progress: rc.progress,
  });
}
