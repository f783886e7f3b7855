import type { Client } from "@connectrpc/connect";
import type {
  JobInfo,
  JobSummary,
  WorkflowEvent,
  WorkflowInfo,
} from "../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type {
  GetReplaceJobDiffResponse,
  JobService,
  QueryJobsResponse,
  QueryPodsResponse,
} from "../../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { Secret } from "../../../proto/gen/peloton/api/v1alpha/peloton_pb";
import type { PodSummary } from "../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { type Caller, type CallOptions, goneOnRetry } from "../shared/grpc-caller";
import type { CreateSpecInput, InstanceRange, JobQueryInput, JobRef, JobSpecInput, PodQueryInput, UpdateSpecInput } from "./types";

/** What GetJob answers: spec and status (or only the spec at a given version), secrets without values, last workflow. */
export interface JobDetail {
  jobInfo?: JobInfo;
  summary?: JobSummary;
  secrets: Secret[];
  workflowInfo?: WorkflowInfo;
}

/** Options of every call that moves a workflow along. */
export interface WorkflowCallOptions extends CallOptions {
  /** Stored on the workflow and returned with it; "" clears it. @default unchanged */
  opaqueData?: string;
}

/**
 * JobService calls. Mutations carry the job's entity version and are not retried (a stale version
 * answers Conflict: re-read and decide); reads retry transient errors.
 */
export interface JobMethods {
  /** CreateJob. Pass `jobId` (a UUID) to make a retry safe: a second create answers AlreadyExists. */
  createJob(spec: JobSpecInput, options?: WorkflowCallOptions & { jobId?: string; createSpec?: CreateSpecInput }): Promise<JobRef>;
  /** ReplaceJob: rolls the job to `spec`. */
  replaceJob(ref: JobRef, spec: JobSpecInput, options?: WorkflowCallOptions & { updateSpec?: UpdateSpecInput }): Promise<JobRef>;
  /** RestartJob: restarts `ranges` (all instances when empty) `batchSize` at a time (0 = all). */
  restartJob(ref: JobRef, options?: WorkflowCallOptions & { batchSize?: number; ranges?: InstanceRange[] }): Promise<JobRef>;
  /** PauseJobWorkflow. */
  pauseJobWorkflow(ref: JobRef, options?: WorkflowCallOptions): Promise<JobRef>;
  /** ResumeJobWorkflow. */
  resumeJobWorkflow(ref: JobRef, options?: WorkflowCallOptions): Promise<JobRef>;
  /** AbortJobWorkflow. */
  abortJobWorkflow(ref: JobRef, options?: WorkflowCallOptions): Promise<JobRef>;
  /** StartJob: starts the job's stopped pods. */
  startJob(ref: JobRef, options?: CallOptions): Promise<JobRef>;
  /** StopJob: kills every pod; the job ends KILLED. */
  stopJob(ref: JobRef, options?: CallOptions): Promise<JobRef>;
  /** DeleteJob: needs a KILLED job unless `force`. NotFound on a retry counts as success. */
  deleteJob(ref: JobRef, options?: CallOptions & { force?: boolean }): Promise<void>;
  /** GetJob. Throws NotFound when the job is gone. */
  getJob(jobId: string, options?: CallOptions & { version?: string; summaryOnly?: boolean }): Promise<JobDetail>;
  /** GetJobIDFromJobName: ids of the jobs with this name, newest first. */
  getJobIdsFromName(jobName: string, options?: CallOptions): Promise<string[]>;
  /** GetWorkflowEvents of one instance in the job's last workflow. */
  getWorkflowEvents(jobId: string, instanceId: number, options?: CallOptions): Promise<WorkflowEvent[]>;
  /** ListPods (server-streamed, gathered): every pod, or those in `range`. */
  listPods(jobId: string, options?: CallOptions & { range?: InstanceRange }): Promise<PodSummary[]>;
  /** QueryPods. */
  queryPods(jobId: string, spec?: PodQueryInput, options?: CallOptions & { summaryOnly?: boolean }): Promise<QueryPodsResponse>;
  /** QueryJobs. */
  queryJobs(spec?: JobQueryInput, options?: CallOptions): Promise<QueryJobsResponse>;
  /** ListJobs (server-streamed, gathered). */
  listJobs(options?: CallOptions): Promise<JobSummary[]>;
  /** ListJobUpdates: the job's workflows, newest first. */
  listJobUpdates(jobId: string, options?: CallOptions): Promise<WorkflowInfo[]>;
  /** GetReplaceJobDiff: what a ReplaceJob to `spec` would add, remove, update and leave. */
  getReplaceJobDiff(ref: JobRef, spec: JobSpecInput, options?: CallOptions): Promise<GetReplaceJobDiffResponse>;
  /** RefreshJob. */
  refreshJob(jobId: string, options?: CallOptions): Promise<void>;
}

const q = (s: string) => JSON.stringify(s);
const onJob = (method: string, jobId: string) => `${method} job ${q(jobId)}`;
const opaque = (o?: WorkflowCallOptions) => (o?.opaqueData === undefined ? undefined : { data: o.opaqueData });
const refOf = (jobId: string, version: { value: string } | undefined): JobRef => ({ jobId, version: version?.value ?? "" });

type Rpcs = Client<typeof JobService>;
type MutationName = "createJob" | "replaceJob" | "restartJob" | "pauseJobWorkflow" | "resumeJobWorkflow" | "abortJobWorkflow" | "startJob" | "stopJob" | "deleteJob";

function mutations(rpc: Rpcs, { once, retried }: Caller): Pick<JobMethods, MutationName> {
  const ids = (ref: JobRef) => ({ jobId: { value: ref.jobId }, version: { value: ref.version } });
  return {
    createJob: (spec, o) =>
      once(onJob("CreateJob", o?.jobId ?? spec.name ?? ""), o, async (c) => {
        const reply = await rpc.createJob(
          { jobId: o?.jobId ? { value: o.jobId } : undefined, spec, createSpec: o?.createSpec, opaqueData: opaque(o) },
          c,
        );
        return refOf(reply.jobId?.value ?? "", reply.version);
      }),
    replaceJob: (ref, spec, o) =>
      once(onJob("ReplaceJob", ref.jobId), o, async (c) =>
        refOf(ref.jobId, (await rpc.replaceJob({ ...ids(ref), spec, updateSpec: o?.updateSpec, opaqueData: opaque(o) }, c)).version),
      ),
    restartJob: (ref, o) =>
      once(onJob("RestartJob", ref.jobId), o, async (c) => {
        const request = { ...ids(ref), batchSize: o?.batchSize ?? 0, ranges: o?.ranges ?? [], opaqueData: opaque(o) };
        return refOf(ref.jobId, (await rpc.restartJob(request, c)).version);
      }),
    pauseJobWorkflow: (ref, o) =>
      once(onJob("PauseJobWorkflow", ref.jobId), o, async (c) =>
        refOf(ref.jobId, (await rpc.pauseJobWorkflow({ ...ids(ref), opaqueData: opaque(o) }, c)).version),
      ),
    resumeJobWorkflow: (ref, o) =>
      once(onJob("ResumeJobWorkflow", ref.jobId), o, async (c) =>
        refOf(ref.jobId, (await rpc.resumeJobWorkflow({ ...ids(ref), opaqueData: opaque(o) }, c)).version),
      ),
    abortJobWorkflow: (ref, o) =>
      once(onJob("AbortJobWorkflow", ref.jobId), o, async (c) =>
        refOf(ref.jobId, (await rpc.abortJobWorkflow({ ...ids(ref), opaqueData: opaque(o) }, c)).version),
      ),
    startJob: (ref, o) =>
      once(onJob("StartJob", ref.jobId), o, async (c) => refOf(ref.jobId, (await rpc.startJob(ids(ref), c)).version)),
    stopJob: (ref, o) => once(onJob("StopJob", ref.jobId), o, async (c) => refOf(ref.jobId, (await rpc.stopJob(ids(ref), c)).version)),
    deleteJob: (ref, o) =>
      retried(
        onJob("DeleteJob", ref.jobId),
        o,
        goneOnRetry(async (c) => {
          await rpc.deleteJob({ ...ids(ref), force: o?.force ?? false }, c);
        }, undefined),
      ),
  };
}

function reads(rpc: Rpcs, { retried }: Caller): Omit<JobMethods, MutationName> {
  const jobId = (id: string) => ({ value: id });
  return {
    getJob: (id, o) =>
      retried(onJob("GetJob", id), o, async (c) => {
        const version = o?.version ? { value: o.version } : undefined;
        const reply = await rpc.getJob({ jobId: jobId(id), version, summaryOnly: o?.summaryOnly ?? false }, c);
        return { jobInfo: reply.jobInfo, summary: reply.summary, secrets: reply.secrets, workflowInfo: reply.workflowInfo };
      }),
    getJobIdsFromName: (name, o) =>
      retried(`GetJobIDFromJobName name ${q(name)}`, o, async (c) =>
        (await rpc.getJobIDFromJobName({ jobName: name }, c)).jobId.map((j) => j.value),
      ),
    getWorkflowEvents: (id, instanceId, o) =>
      retried(`${onJob("GetWorkflowEvents", id)} instance ${instanceId}`, o, async (c) =>
        (await rpc.getWorkflowEvents({ jobId: jobId(id), instanceId }, c)).events,
      ),
    listPods: (id, o) =>
      retried(onJob("ListPods", id), o, async (c) => {
        const pods: PodSummary[] = [];
        for await (const reply of rpc.listPods({ jobId: jobId(id), range: o?.range }, c)) pods.push(...reply.pods);
        return pods;
      }),
    queryPods: (id, spec, o) =>
      retried(onJob("QueryPods", id), o, (c) => rpc.queryPods({ jobId: jobId(id), spec, summaryOnly: o?.summaryOnly ?? false }, c)),
    queryJobs: (spec, o) => retried("QueryJobs", o, (c) => rpc.queryJobs({ spec }, c)),
    listJobs: (o) =>
      retried("ListJobs", o, async (c) => {
        const jobs: JobSummary[] = [];
        for await (const reply of rpc.listJobs({}, c)) jobs.push(...reply.jobs);
        return jobs;
      }),
    listJobUpdates: (id, o) =>
      retried(onJob("ListJobUpdates", id), o, async (c) => (await rpc.listJobUpdates({ jobId: jobId(id) }, c)).workflowInfos),
    getReplaceJobDiff: (ref, spec, o) =>
      retried(onJob("GetReplaceJobDiff", ref.jobId), o, (c) =>
        rpc.getReplaceJobDiff({ jobId: jobId(ref.jobId), version: { value: ref.version }, spec }, c),
      ),
    refreshJob: (id, o) =>
      retried(onJob("RefreshJob", id), o, async (c) => {
        await rpc.refreshJob({ jobId: jobId(id) }, c);
      }),
  };
}

/** Builds the JobService methods over a Connect client. */
export function jobMethods(rpc: Rpcs, caller: Caller): JobMethods {
  return { ...mutations(rpc, caller), ...reads(rpc, caller) };
}
