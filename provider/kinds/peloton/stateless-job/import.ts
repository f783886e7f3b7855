import { JobState } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { ImportDefinition, OperationContext, Props } from "../../../core/contract";
import { ClusterformError } from "../../../core/errors";
import { readDeadline } from "../../fields";
import { orMissing, pelotonClient } from "../common";
import { jobInputsOf } from "./import-spec";
import { jobOutputs, jobStateName } from "./job-status";
import { JOB_TIMEOUTS } from "./schema";

/**
 * Import of `peloton:StatelessJob` by its job id (a UUID), the id create records. Peloton reports
 * the job's spec (name, pool, instance count, pod specs, SLA, labels, owner, team, description)
 * and its desired run state. The update policy (how a rollout runs) and `restartNonce` (a trigger,
 * not a state) are not stored on the job: write them in the program if you use them.
 */
export const statelessJobImport: ImportDefinition = {
  platform: "peloton",
  idPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  async read(ctx, id) {
    const detail = await orMissing(async () => (await pelotonClient(ctx.config)).getJob(id, { deadline: readDeadline({}, JOB_TIMEOUTS) }));
    const spec = detail?.jobInfo?.spec;
    if (!detail || !spec) return undefined;
    const inputs = jobInputsOf(spec);
    if (detail.jobInfo?.status?.desiredState === JobState.KILLED) inputs.desiredState = "KILLED";
    // The job keeps its own id: check derives one only when the old inputs hold none.
    return { inputs, outputs: jobOutputs(id, detail), prior: { jobId: id, respoolId: inputs.respoolId } };
  },
};

/**
 * The id of the job of a name (GetJobIDFromJobName), for `getStatelessJob` by name; undefined when
 * no job has it.
 * @throws ClusterformError FailedPrecondition listing the ids when several jobs have it.
 */
export async function jobIdOfName(ctx: OperationContext, args: Props): Promise<string | undefined> {
  const name = String(args.name);
  const ids = (await orMissing(async () => (await pelotonClient(ctx.config)).getJobIdsFromName(name, { deadline: readDeadline({}, JOB_TIMEOUTS) }))) ?? [];
  if (ids.length > 1) {
    throw new ClusterformError({
      code: "FailedPrecondition",
      platformCode: "AMBIGUOUS",
      operation: `GetJobIDFromJobName name ${JSON.stringify(name)}`,
      platformMessage: `${ids.length} jobs have this name (${ids.join(", ")}): look the job up by \`id\``,
    });
  }
  return ids[0];
}

/** The jobs matching Peloton's query (one QueryJobs: labels, name, owner), newest first, for `getStatelessJobs`. */
export async function queryJobs(ctx: OperationContext, args: Props): Promise<Props[]> {
  const labels = Object.entries((args.labels ?? {}) as Record<string, string>).map(([key, value]) => ({ key, value }));
  const spec = { labels, name: typeof args.name === "string" ? args.name : "", owner: typeof args.owner === "string" ? args.owner : "" };
  const reply = await (await pelotonClient(ctx.config)).queryJobs(spec, { deadline: readDeadline({}, JOB_TIMEOUTS) });
  return reply.records.map((job) => {
    const id = job.jobId?.value ?? "";
    return {
      id,
      jobId: id,
      name: job.name,
      respoolId: job.respoolId?.value ?? "",
      instanceCount: job.instanceCount,
      labels: Object.fromEntries(job.labels.map((l) => [l.key, l.value])),
      jobOwner: job.owner,
      owningTeam: job.owningTeam,
      state: jobStateName(job.status?.state),
    };
  });
}
