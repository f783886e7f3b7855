import type { MessageInitShape } from "@bufbuild/protobuf";
import type { JobSpec, QuerySpec } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { QueryJobsRequest, QueryJobsResponseSchema } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { PelotonEnv } from "./env";
import { invalidArgument } from "./errors";
import type { JobRecord } from "./job-store";
import { jobStatus, jobSummary } from "./job-view";
import { findPoolAtPath } from "./respool-tree";

/** Resolves a pool path to its id; INVALID_ARGUMENT for a path that names no pool. */
function poolIdAt(env: PelotonEnv, path: string): string {
  const pool = findPoolAtPath(env, path);
  if (!pool) throw invalidArgument(`resource pool path ${JSON.stringify(path)} names no pool`);
  return pool.id;
}

const timestampMs = (ts: { seconds: bigint; nanos: number } | undefined) =>
  ts === undefined ? undefined : Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6);

/** Whether a job matches every criterion the query sets. */
function matches(env: PelotonEnv, q: QuerySpec, job: JobRecord, spec: JobSpec, poolId: string | undefined): boolean {
  const labels = spec.labels.map((l) => `${l.key}=${l.value}`);
  const text = [spec.name, spec.owner, spec.description, ...labels].join("\n");
  const min = timestampMs(q.creationTimeRange?.min);
  const max = timestampMs(q.creationTimeRange?.max);
  const state = jobStatus(env, job, env.clock.now()).state;
  return (
    (poolId === undefined || job.respoolId === poolId) &&
    (q.owner === "" || spec.owner === q.owner) &&
    (q.name === "" || spec.name.includes(q.name)) &&
    q.labels.every((l) => labels.includes(`${l.key}=${l.value}`)) &&
    q.keywords.every((k) => text.includes(k)) &&
    (q.jobStates.length === 0 || (state !== undefined && q.jobStates.includes(state))) &&
    (min === undefined || job.createdMs >= min) &&
    (max === undefined || job.createdMs < max)
  );
}

/** QueryJobs: the jobs matching every criterion, newest first, paged by offset and limit (0 = all). */
export function queryJobs(env: PelotonEnv, request: QueryJobsRequest): MessageInitShape<typeof QueryJobsResponseSchema> {
  const q = request.spec;
  const poolId = q?.respool?.value ? poolIdAt(env, q.respool.value) : undefined;
  const now = env.clock.now();
  const found = env.jobs
    .list()
    .filter((job) => {
      const spec = env.jobs.findConfig(job.id, job.configVersion);
      return spec !== undefined && (!q || matches(env, q, job, spec, poolId));
    })
    .sort((a, b) => b.createdMs - a.createdMs);
  const offset = q?.pagination?.offset ?? 0;
  const limit = q?.pagination?.limit ?? 0;
  const page = found.slice(offset, limit > 0 ? offset + limit : undefined);
  return {
    records: page.map((job) => jobSummary(env, job, now)),
    pagination: { offset, limit, total: found.length },
    spec: q,
  };
}
