import { Code, ConnectError } from "@connectrpc/connect";
import type { JobSpec } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { PelotonEnv } from "./env";
import { invalidArgument, jobNotFound } from "./errors";
import type { JobRecord } from "./job-store";
import { podSpecFor, RESOURCE_KINDS } from "./pod-specs";
import { ROOT_POOL_ID } from "./respool-store";

/** The job with this id; NOT_FOUND as the job manager words it. */
export function mustFindJob(env: PelotonEnv, jobId: string): JobRecord {
  const job = env.jobs.find(jobId);
  if (!job) throw jobNotFound(jobId);
  return job;
}

/** Checks that a job may run in pool `respoolId`: it exists and is a leaf other than the root. */
export function assertJobPool(env: PelotonEnv, respoolId: string): void {
  if (respoolId === "") throw invalidArgument("resource pool ID is null: spec.respool_id is required");
  if (respoolId === ROOT_POOL_ID) throw invalidArgument("cannot submit jobs to the `root` resource pool");
  if (!env.respools.find(respoolId)) throw new ConnectError(`resource pool ${JSON.stringify(respoolId)} not found`, Code.NotFound);
  if (env.respools.children(respoolId).length > 0) {
    throw invalidArgument(`cannot submit jobs to a non leaf resource pool: ${JSON.stringify(respoolId)} has children`);
  }
}

/** Checks a job spec's pods: every instance has at least one container, with non-negative resources. */
function assertPods(spec: JobSpec): void {
  for (const key of Object.keys(spec.instanceSpec)) {
    if (Number(key) >= spec.instanceCount) {
      throw invalidArgument(`instance_spec has instance ${key}, but instance_count is ${spec.instanceCount} (instances 0 to ${spec.instanceCount - 1})`);
    }
  }
  for (let i = 0; i < spec.instanceCount; i++) {
    const pod = podSpecFor(spec, i);
    if (pod.containers.length === 0) {
      throw invalidArgument(`instance ${i} has no container: default_spec or instance_spec must give at least one container`);
    }
    for (const container of pod.containers) {
      for (const field of Object.values(RESOURCE_KINDS)) {
        const value = container.resource?.[field] ?? 0;
        if (!(value >= 0)) throw invalidArgument(`container "${container.name}" of instance ${i}: resource ${field} is ${value}, must be >= 0`);
      }
    }
  }
}

/** Validates a job spec for CreateJob, ReplaceJob or GetReplaceJobDiff. */
export function assertValidJobSpec(env: PelotonEnv, spec: JobSpec | undefined): asserts spec is JobSpec {
  if (!spec) throw invalidArgument("job spec is required");
  if (spec.name === "") throw invalidArgument("job spec name is required");
  assertJobPool(env, spec.respoolId?.value ?? "");
  assertPods(spec);
}
