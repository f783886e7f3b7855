import { randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type JobSpec, JobSpecSchema, JobState, WorkflowType } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { ResourcePoolIDSchema, RevisionSchema } from "../../proto/gen/peloton/api/v1alpha/peloton_pb";
import type { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { PelotonEnv } from "./env";
import { assertCurrentVersion, invalidArgument, isUuid } from "./errors";
import type { ServiceHandlers } from "./handler-types";
import { assertValidJobSpec, mustFindJob } from "./job-validation";
import type { JobRecord } from "./job-store";
import { deriveJobState, instanceViews, jobVersion } from "./job-view";
import { diffInstances, fromRanges } from "./pod-specs";
import { beginWorkflow, toPolicy } from "./workflow-start";

type Handlers = ServiceHandlers<typeof JobService>;

/** A job spec as stored: with its revision. */
function withRevision(spec: JobSpec, version: number, createdMs: number, now: number): JobSpec {
  return create(JobSpecSchema, {
    ...spec,
    revision: create(RevisionSchema, { version: BigInt(version), createdAt: BigInt(createdMs), updatedAt: BigInt(now), updatedBy: "peloton" }),
  });
}

/** Moves a job to a new configuration version (and workflow version) and stores the spec. */
function bumpConfig(env: PelotonEnv, job: JobRecord, spec: JobSpec, now: number): JobRecord {
  const next: JobRecord = {
    ...job,
    name: spec.name,
    configVersion: job.configVersion + 1,
    workflowVersion: job.workflowVersion + 1,
    revision: job.revision + 1,
    updatedMs: now,
  };
  env.jobs.insertConfig(job.id, next.configVersion, withRevision(spec, next.configVersion, job.createdMs, now), now);
  const { name, configVersion, workflowVersion, revision, updatedMs } = next;
  env.jobs.update(job.id, { name, configVersion, workflowVersion, revision, updatedMs });
  return next;
}

const createJob = (env: PelotonEnv): Handlers["createJob"] => (request) => {
  const id = request.jobId?.value || randomUUID();
  if (!isUuid(id)) throw invalidArgument(`jobID is not valid UUID: got ${JSON.stringify(id)}`);
  const spec = request.spec;
  assertValidJobSpec(env, spec);
  if (env.jobs.find(id)) throw new ConnectError(`job ${id} already exists`, Code.AlreadyExists);
  const now = env.clock.now();
  const job: JobRecord = {
    id,
    name: spec.name,
    respoolId: spec.respoolId?.value ?? "",
    configVersion: 1,
    desiredStateVersion: 1,
    workflowVersion: 1,
    desiredState: "RUNNING",
    createdMs: now,
    updatedMs: now,
    revision: 1,
    secrets: request.secrets.map((s) => ({ id: s.secretId?.value || randomUUID(), path: s.path })),
  };
  env.jobs.insert(job);
  env.jobs.insertConfig(id, 1, withRevision(spec, 1, now, now), now);
  beginWorkflow(env, {
    job,
    type: WorkflowType.UPDATE,
    operation: "CreateJob",
    fromConfig: 0,
    prevVersion: "",
    policy: toPolicy(request.createSpec),
    diff: diffInstances(undefined, spec),
    opaqueData: request.opaqueData?.data ?? "",
    t: now,
  });
  return { jobId: { value: id }, version: { value: jobVersion(job) } };
};

const replaceJob = (env: PelotonEnv): Handlers["replaceJob"] => (request) => {
  const job = mustFindJob(env, request.jobId?.value ?? "");
  assertCurrentVersion(job, request.version?.value ?? "");
  const spec = request.spec ? create(JobSpecSchema, request.spec) : undefined;
  if (spec && !spec.respoolId?.value) spec.respoolId = create(ResourcePoolIDSchema, { value: job.respoolId });
  assertValidJobSpec(env, spec);
  if (spec.respoolId?.value !== job.respoolId) {
    throw invalidArgument(`respool_id of job ${job.id} cannot change: it is ${job.respoolId}, got ${spec.respoolId?.value}`);
  }
  const now = env.clock.now();
  const before = env.jobs.findConfig(job.id, job.configVersion);
  const next = bumpConfig(env, job, spec, now);
  beginWorkflow(env, {
    job: next,
    type: WorkflowType.UPDATE,
    operation: "ReplaceJob",
    fromConfig: job.configVersion,
    prevVersion: jobVersion(job),
    policy: toPolicy(request.updateSpec),
    diff: diffInstances(before, spec),
    opaqueData: request.opaqueData?.data ?? "",
    t: now,
  });
  return { version: { value: jobVersion(next) } };
};

const restartJob = (env: PelotonEnv): Handlers["restartJob"] => (request) => {
  const job = mustFindJob(env, request.jobId?.value ?? "");
  assertCurrentVersion(job, request.version?.value ?? "");
  const spec = env.jobs.findConfig(job.id, job.configVersion)!;
  const count = spec.instanceCount;
  const ranges: Array<[number, number]> = request.ranges.map((r) => [r.from, r.to]);
  const restarted = ranges.length > 0 ? fromRanges(ranges, count) : fromRanges([[0, count]], count);
  const now = env.clock.now();
  const next = bumpConfig(env, job, spec, now);
  const unchanged = [...Array(count).keys()].filter((i) => !restarted.includes(i));
  beginWorkflow(env, {
    job: next,
    type: WorkflowType.RESTART,
    operation: "RestartJob",
    fromConfig: job.configVersion,
    prevVersion: jobVersion(job),
    policy: toPolicy({ batchSize: request.batchSize }),
    diff: { added: [], removed: [], updated: restarted, unchanged },
    restartBatchSize: request.batchSize,
    restartRanges: ranges,
    opaqueData: request.opaqueData?.data ?? "",
    t: now,
  });
  return { version: { value: jobVersion(next) } };
};

const deleteJob = (env: PelotonEnv): Handlers["deleteJob"] => (request) => {
  const job = mustFindJob(env, request.jobId?.value ?? "");
  assertCurrentVersion(job, request.version?.value ?? "");
  const state = deriveJobState(job, instanceViews(env, job, env.clock.now()).map((v) => v.state));
  if (state !== JobState.KILLED && !request.force) {
    throw new ConnectError(`job is not stopped: job ${job.id} is ${JobState[state]}; stop it first or set force`, Code.Aborted);
  }
  env.runs.deleteForJob(job.id);
  env.workflows.deleteForJob(job.id);
  env.jobs.delete(job.id);
  return {};
};

/** JobService calls that create, replace, restart or delete jobs. */
export function createJobMutations(env: PelotonEnv): Pick<Handlers, "createJob" | "replaceJob" | "restartJob" | "deleteJob"> {
  return { createJob: createJob(env), replaceJob: replaceJob(env), restartJob: restartJob(env), deleteJob: deleteJob(env) };
}
