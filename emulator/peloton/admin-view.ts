import { JobState, WorkflowState, WorkflowType } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { BadRequest } from "../admin";
import type { PelotonEnv } from "./env";
import { instanceViews, jobStatus, jobVersion } from "./job-view";
import { poolPath } from "./respool-tree";
import { failureMs, type RunRecord, runningMs } from "./runs";
import { settle } from "./simulation";

/** One pod of an instance's timeline: which configuration it ran, from when to when. */
export interface TimelineEntry {
  instanceId: number;
  podId: string;
  configVersion: number;
  createdMs: number;
  /** When the pool admitted it; null while it waits. */
  admittedMs: number | null;
  /** When it reached RUNNING; null if it never did (yet). */
  runningMs: number | null;
  /** When it stopped holding resources; null while it lives. */
  endMs: number | null;
  /** How it ended: `killed`, `failed`, `handover` (config change without restart), or `live`. */
  outcome: "killed" | "failed" | "handover" | "live";
}

function outcomeOf(env: PelotonEnv, run: RunRecord, now: number): TimelineEntry["outcome"] {
  if (run.handover && (run.endMs ?? now + 1) <= now) return "handover";
  if (run.killMs !== null && run.killMs <= now) return "killed";
  const failed = failureMs(run, env.timing);
  return failed !== undefined && failed <= now ? "failed" : "live";
}

/** Every pod a job has had, by instance then age, settled at the current time. */
export function jobTimeline(env: PelotonEnv, url: URL): { jobId: string; entries: TimelineEntry[] } {
  const jobId = url.searchParams.get("job") ?? "";
  if (!env.jobs.find(jobId)) throw new BadRequest(`query parameter "job": no job ${JSON.stringify(jobId)}; see /_local/peloton/jobs`);
  settle(env);
  const now = env.clock.now();
  const entries = env.runs
    .listForJob(jobId)
    .filter((run) => run.createdMs <= now)
    .map((run) => {
      const running = runningMs(run, env.timing);
      return {
        instanceId: run.instanceId,
        podId: `${jobId}-${run.instanceId}-${run.runNumber}`,
        configVersion: run.configVersion,
        createdMs: run.createdMs,
        admittedMs: run.admittedMs,
        runningMs: running !== undefined && running <= now ? running : null,
        endMs: run.endMs !== null && run.endMs <= now ? run.endMs : null,
        outcome: outcomeOf(env, run, now),
      };
    });
  return { jobId, entries };
}

/** Every job with its versions, state, pods and latest workflow, settled at the current time. */
export function listJobsForAdmin(env: PelotonEnv): { jobs: unknown[] } {
  settle(env);
  const now = env.clock.now();
  const jobs = env.jobs.list().map((job) => {
    const wf = env.workflows.latest(job.id);
    return {
      id: job.id,
      name: job.name,
      respoolId: job.respoolId,
      version: jobVersion(job),
      state: JobState[jobStatus(env, job, now).state ?? JobState.INVALID],
      desiredState: job.desiredState,
      pods: instanceViews(env, job, now).map((v) => ({
        instanceId: v.instanceId,
        state: PodState[v.state],
        configVersion: v.run.configVersion,
        podId: `${job.id}-${v.instanceId}-${v.run.runNumber}`,
        failureCount: v.run.failureCount,
      })),
      workflow: wf && {
        type: WorkflowType[wf.type],
        state: WorkflowState[wf.state],
        opaqueData: wf.opaqueData,
        todo: wf.todo,
        current: wf.current,
        done: wf.done,
        failed: wf.failed,
      },
    };
  });
  return { jobs };
}

/** Every resource pool with its path, limits and current use. */
export function listRespoolsForAdmin(env: PelotonEnv): { respools: unknown[] } {
  settle(env);
  return {
    respools: env.respools.list().map((pool) => ({
      id: pool.id,
      path: poolPath(env, pool),
      parentId: pool.parentId,
      resources: pool.spec.resources.map((r) => ({ kind: r.kind, reservation: r.reservation, limit: r.limit })),
      jobs: env.jobs.countInPool(pool.id),
    })),
  };
}
