import { Code, ConnectError } from "@connectrpc/connect";
import type { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { PelotonEnv } from "./env";
import { assertCurrentVersion, parseEntityVersion } from "./errors";
import type { ServiceHandlers } from "./handler-types";
import { assertValidJobSpec, mustFindJob } from "./job-validation";
import { jobStatus, jobSummary, rfc3339, workflowInfo } from "./job-view";
import { diffInstances, toRanges } from "./pod-specs";
import { queryJobs } from "./query-jobs";

type Handlers = ServiceHandlers<typeof JobService>;

type ReadName = "getJob" | "getJobIDFromJobName" | "getWorkflowEvents" | "queryJobs" | "listJobs" | "listJobUpdates" | "listJobWorkflows" | "getReplaceJobDiff" | "getJobCache";

const ranges = (ids: readonly number[]) => toRanges(ids).map(([from, to]) => ({ from, to }));

/** JobService reads of jobs and workflows. */
export function createJobReads(env: PelotonEnv): Pick<Handlers, ReadName> {
  return {
    getJob(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      const now = env.clock.now();
      if (request.version?.value) {
        const { configVersion } = parseEntityVersion(request.version.value);
        const spec = env.jobs.findConfig(job.id, configVersion);
        if (!spec) throw new ConnectError(`job:${job.id} has no configuration version ${configVersion}`, Code.NotFound);
        return { jobInfo: { jobId: { value: job.id }, spec } };
      }
      if (request.summaryOnly) return { summary: jobSummary(env, job, now) };
      const wf = env.workflows.latest(job.id);
      return {
        jobInfo: { jobId: { value: job.id }, spec: env.jobs.findConfig(job.id, job.configVersion), status: jobStatus(env, job, now) },
        secrets: job.secrets.map((s) => ({ secretId: { value: s.id }, path: s.path })),
        workflowInfo: wf ? workflowInfo(wf) : undefined,
      };
    },
    getJobIDFromJobName(request) {
      const jobs = env.jobs.list().filter((j) => j.name === request.jobName);
      if (jobs.length === 0) throw new ConnectError(`job name ${JSON.stringify(request.jobName)} not found`, Code.NotFound);
      return { jobId: jobs.sort((a, b) => b.createdMs - a.createdMs).map((j) => ({ value: j.id })) };
    },
    getWorkflowEvents(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      const wf = env.workflows.latest(job.id);
      const events = wf?.instanceEvents?.[request.instanceId] ?? [];
      return { events: [...events].reverse().map((e) => ({ type: wf?.type, state: e.state, timestamp: rfc3339(e.atMs) })) };
    },
    queryJobs: (request) => queryJobs(env, request),
    listJobs() {
      const now = env.clock.now();
      return [{ jobs: env.jobs.list().map((job) => jobSummary(env, job, now)) }];
    },
    listJobUpdates(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      return { workflowInfos: env.workflows.listForJob(job.id).map((wf) => workflowInfo(wf)) };
    },
    // Upstream's name for the same read; the CLI's `job stateless list-updates` calls it.
    listJobWorkflows(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      const all = env.workflows.listForJob(job.id);
      const newest = request.updatesLimit > 0 ? all.slice(0, request.updatesLimit) : all;
      return { workflowInfos: newest.map((wf) => workflowInfo(wf)) };
    },
    getReplaceJobDiff(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      assertCurrentVersion(job, request.version?.value ?? "");
      const spec = request.spec;
      assertValidJobSpec(env, spec);
      const diff = diffInstances(env.jobs.findConfig(job.id, job.configVersion), spec);
      return {
        instancesAdded: ranges(diff.added),
        instancesRemoved: ranges(diff.removed),
        instancesUpdated: ranges(diff.updated),
        instancesUnchanged: ranges(diff.unchanged),
      };
    },
    getJobCache(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      return { spec: env.jobs.findConfig(job.id, job.configVersion), status: jobStatus(env, job, env.clock.now()) };
    },
  };
}
