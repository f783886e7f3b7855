import type { PelotonClient } from "../../../clients/peloton/client";
import type { JobDetail } from "../../../clients/peloton/job-methods";
import type { ResourcePoolInfo } from "../../../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import { JobState, WorkflowState } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { waitFor } from "../../../core/wait";
import { orMissing } from "../common";
import { describeWorkflow, FAILED_WORKFLOW, jobStateName, lastEvents, latestWorkflow, podStatsOf } from "./job-status";
import type { PodInputs } from "./pod-schema";

const q = JSON.stringify;

/** What a wait on a job needs to explain a pool that is too small. */
export interface PoolContext {
  respoolId: string;
  instanceCount: number;
  defaultSpec: PodInputs;
}

/** A pod's demand per pool resource kind (`cpu`, `memory`, `disk`, `gpu`). */
export function podDemand(pod: PodInputs): Record<string, number> {
  const sum = (pick: (r: PodInputs["containers"][number]["resources"]) => number | undefined) =>
    pod.containers.reduce((total, c) => total + (pick(c.resources) ?? 0), 0);
  return { cpu: sum((r) => r.cpu), memory: sum((r) => r.memoryMb), disk: sum((r) => r.diskMb), gpu: sum((r) => r.gpu) };
}

interface Observation {
  detail: JobDetail;
  pool?: ResourcePoolInfo;
}

/** Kinds where the pool's limit is below what the pods need. */
function shortages(pool: ResourcePoolInfo, demand: Record<string, number>, pods: number, includeUsed: boolean): string[] {
  const out: string[] = [];
  for (const r of pool.spec?.resources ?? []) {
    const need = (demand[r.kind] ?? 0) * pods;
    const used = includeUsed ? (pool.usages.find((u) => u.kind === r.kind)?.allocation ?? 0) : 0;
    if (need > 0 && used + need > r.limit) {
      out.push(`${r.kind}: limit ${r.limit}, ${includeUsed ? `${used} allocated, ` : ""}${pods} pod(s) need ${need}`);
    }
  }
  return out;
}

/** The message about PENDING pods and the pool that holds them back, if that is what happened. */
function pendingMessage(obs: Observation, ctx: PoolContext, impossibleOnly: boolean): string | undefined {
  const pending = podStatsOf(obs.detail).PENDING ?? 0;
  if (pending === 0 || !obs.pool) return undefined;
  const demand = podDemand(ctx.defaultSpec);
  const whole = shortages(obs.pool, demand, ctx.instanceCount, false);
  const where = `pool ${q(obs.pool.path?.value ?? ctx.respoolId)} (id ${ctx.respoolId})`;
  if (whole.length > 0) {
    return `${pending} pod(s) stay PENDING: ${where} can never hold the job's ${ctx.instanceCount} instance(s) (${whole.join("; ")}); raise the pool's limits or lower instanceCount`;
  }
  if (impossibleOnly) return undefined;
  const now = shortages(obs.pool, demand, pending, true);
  return `${pending} pod(s) still PENDING in ${where}${now.length > 0 ? `, which is short of ${now.join("; ")}` : ""}; the pool is full: free capacity in it or raise its limits`;
}

/** Options of {@link waitForJob}. */
export interface JobWaitOptions {
  what: string;
  isDone: (detail: JobDetail) => boolean;
  /** Ends the wait early with this message. @default never */
  failure?: (detail: JobDetail) => string | undefined;
  deadline: Deadline;
  pool?: PoolContext;
  progress?: (message: string) => void;
}

/**
 * Polls GetJob until `isDone`. When pods stay PENDING the pool is read too: a pool whose limits
 * can never hold the job ends the wait at once, and at the deadline the error names the pool and
 * what it is short of.
 */
export async function waitForJob(client: PelotonClient, jobId: string, o: JobWaitOptions): Promise<JobDetail> {
  let last: Observation | undefined;
  const poll = async (): Promise<Observation> => {
    const detail = await client.getJob(jobId, { deadline: o.deadline });
    const pending = podStatsOf(detail).PENDING ?? 0;
    const pool = pending > 0 && o.pool ? (await orMissing(() => client.getResourcePool(o.pool!.respoolId, { deadline: o.deadline })))?.respool : undefined;
    last = { detail, pool };
    return last;
  };
  try {
    const result = await waitFor({
      poll,
      isDone: (obs) => o.isDone(obs.detail),
      failure: (obs) => o.failure?.(obs.detail) ?? (o.pool ? pendingMessage(obs, o.pool, true) : undefined),
      describe: (obs) => describeWorkflow(obs.detail),
      deadline: o.deadline,
      what: o.what,
      progress: o.progress,
    });
    return result.value.detail;
  } catch (err) {
    const pending = last && o.pool ? pendingMessage(last, o.pool, false) : undefined;
    if (!(err instanceof ClusterformError) || err.code !== "DeadlineExceeded" || !pending) throw err;
    throw new ClusterformError({ ...err, platformMessage: `${err.platformMessage}; ${pending}`, cause: err });
  }
}

/** Waits for the job's workflow that carries `opaque` to succeed; a failed, aborted or rolled back one fails. */
export function waitForWorkflow(client: PelotonClient, jobId: string, opaque: string, o: Omit<JobWaitOptions, "isDone" | "failure">) {
  return waitForJob(client, jobId, {
    ...o,
    isDone: (d) => {
      const wf = latestWorkflow(d);
      return wf?.opaque === opaque && wf.state === WorkflowState.SUCCEEDED;
    },
    failure: (d) => {
      const wf = latestWorkflow(d);
      if (!wf) return undefined;
      if (wf.opaque !== opaque) {
        return `another change started a newer workflow on job ${jobId} (version ${wf.version}, ${describeWorkflow(d)}); it replaced this rollout: run \`pulumi up\` again to roll to this configuration`;
      }
      if (!FAILED_WORKFLOW.has(wf.state)) return undefined;
      const now = wf.state === WorkflowState.ROLLED_BACK ? "the job runs its previous configuration again" : "instances may run either configuration";
      return `the rollout ended ${WorkflowState[wf.state]}: ${describeWorkflow(d)}; last events: ${lastEvents(d) || "none"}; ${now}`;
    },
  });
}

/** Waits until the job reaches `state` (RUNNING with every instance running, or KILLED). */
export function waitForJobState(
  client: PelotonClient,
  jobId: string,
  state: "RUNNING" | "KILLED",
  instanceCount: number,
  o: Omit<JobWaitOptions, "isDone" | "failure" | "what">,
) {
  return waitForJob(client, jobId, {
    ...o,
    what: `job ${q(jobId)} to be ${state}`,
    isDone: (d) =>
      jobStateName(d.jobInfo?.status?.state) === state && (state === "KILLED" || (podStatsOf(d).RUNNING ?? 0) >= instanceCount),
    failure: (d) => (state === "RUNNING" && d.jobInfo?.status?.state === JobState.FAILED ? `job ${q(jobId)} FAILED: ${describeWorkflow(d)}` : undefined),
  });
}

/** Waits until GetJob answers NOT_FOUND. */
export async function waitForJobGone(client: PelotonClient, jobId: string, deadline: Deadline, progress?: (m: string) => void) {
  await waitFor({
    poll: () => orMissing(() => client.getJob(jobId, { deadline })),
    isDone: (d) => d === undefined,
    describe: (d) => (d ? `state ${jobStateName(d.jobInfo?.status?.state)}` : "gone"),
    deadline,
    what: `job ${q(jobId)} to be deleted`,
    progress,
  });
}
