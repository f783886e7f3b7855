import type { JobDetail } from "../../../clients/peloton/job-methods";
import { JobState, WorkflowState, WorkflowType } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";

type Props = Record<string, unknown>;

/** Workflow states in which the workflow still moves. */
export const ACTIVE_WORKFLOW: ReadonlySet<WorkflowState> = new Set([
  WorkflowState.INITIALIZED,
  WorkflowState.ROLLING_FORWARD,
  WorkflowState.PAUSED,
  WorkflowState.ROLLING_BACKWARD,
]);

/** Workflow states that end a rollout without reaching its configuration. */
export const FAILED_WORKFLOW: ReadonlySet<WorkflowState> = new Set([WorkflowState.FAILED, WorkflowState.ABORTED, WorkflowState.ROLLED_BACK]);

/** The name of a job state without its prefix, e.g. `RUNNING`. */
export const jobStateName = (s: JobState | undefined) => JobState[s ?? JobState.INVALID];

/** The name of a workflow state without its prefix, e.g. `ROLLING_FORWARD`. */
export const workflowStateName = (s: WorkflowState | undefined) => WorkflowState[s ?? WorkflowState.INVALID];

/** The latest workflow's state and `opaque_data`, if the job has one. */
export function latestWorkflow(detail: JobDetail): { state: WorkflowState; opaque: string; version: string } | undefined {
  const wf = detail.workflowInfo;
  if (!wf?.status) return undefined;
  return { state: wf.status.state, opaque: wf.opaqueData?.data ?? "", version: wf.status.version?.value ?? "" };
}

/** Pod counts by state without the `POD_STATE_` prefix, e.g. `{ RUNNING: 3 }`. */
export function podStatsOf(detail: JobDetail): Record<string, number> {
  const stats = detail.jobInfo?.status?.podStats ?? {};
  return Object.fromEntries(
    Object.keys(stats)
      .sort()
      .map((k) => [k.replace(/^POD_STATE_/, ""), stats[k]]),
  );
}

/** The job's outputs: id, entity version, state, pods by state, and the last workflow. */
export function jobOutputs(jobId: string, detail: JobDetail): Props {
  const status = detail.jobInfo?.status;
  const wf = detail.workflowInfo?.status;
  return {
    jobId,
    version: status?.version?.value ?? "",
    state: jobStateName(status?.state),
    podStats: podStatsOf(detail),
    workflow: wf
      ? {
          type: WorkflowType[wf.type],
          state: workflowStateName(wf.state),
          instancesCompleted: wf.numInstancesCompleted,
          instancesRemaining: wf.numInstancesRemaining,
          instancesFailed: wf.numInstancesFailed,
        }
      : null,
  };
}

/** One line about a workflow: type, state, counts, for progress and errors. */
export function describeWorkflow(detail: JobDetail): string {
  const wf = detail.workflowInfo?.status;
  if (!wf) return "no workflow";
  const pods = Object.entries(podStatsOf(detail))
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return (
    `workflow ${WorkflowType[wf.type]} ${workflowStateName(wf.state)}: ${wf.numInstancesCompleted} instance(s) done, ` +
    `${wf.numInstancesRemaining} remaining, ${wf.numInstancesFailed} failed${wf.instancesCurrent.length ? ` (now ${wf.instancesCurrent.join(", ")})` : ""}; pods: ${pods || "none"}`
  );
}

/** The workflow's last events, newest first, e.g. `ROLLED_BACK at 2026-...; ROLLING_BACKWARD at ...`. */
export function lastEvents(detail: JobDetail, limit = 4): string {
  const events = detail.workflowInfo?.events ?? [];
  return events
    .slice(0, limit)
    .map((e) => `${workflowStateName(e.state)} at ${e.timestamp}`)
    .join("; ");
}
