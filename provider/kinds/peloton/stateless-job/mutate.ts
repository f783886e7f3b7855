import type { PelotonClient } from "../../../clients/peloton/client";
import type { JobDetail } from "../../../clients/peloton/job-methods";
import type { JobRef } from "../../../clients/peloton/types";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError, isTransient } from "../../../core/errors";
import { backoffDelayMs, realSleep } from "../../../core/retry";
import { describeWorkflow } from "./job-status";

/** One mutating JobService call and how to tell whether it is still needed. */
export interface JobMutation {
  /** What is done, e.g. `ReplaceJob job "…"`. */
  operation: string;
  /** False when the job already is (or is on its way to) what the call would make it. */
  needed(detail: JobDetail): boolean;
  /** Sends the call with the job's current entity version. */
  send(ref: JobRef): Promise<JobRef>;
}

/** What {@link mutateJob} did. */
export type MutationOutcome = { sent: true; ref: JobRef } | { sent: false; detail: JobDetail };

const versionOf = (d: JobDetail) => d.jobInfo?.status?.version?.value ?? "";

/** A stale entity version: Peloton answers ABORTED `unexpected entity version`. */
function isStaleVersion(err: ClusterformError): boolean {
  return err.code === "Conflict" && /entity version/i.test(err.platformMessage);
}

function conflict(m: JobMutation, read: string, now: JobDetail, cause: ClusterformError): ClusterformError {
  return new ClusterformError({
    code: "Conflict",
    platformCode: cause.platformCode,
    operation: m.operation,
    platformMessage:
      `${cause.platformMessage}; the job was changed by someone else twice while Clusterform changed it: it was at version ${read}, ` +
      `now ${versionOf(now)} (${describeWorkflow(now)}); nothing of this run's change was applied, run \`pulumi up\` again once the other change is done`,
    cause,
  });
}

/**
 * Sends `m` with the job's current entity version. A stale version (someone else changed the job
 * between the read and the call) is re-read: when the change is still needed it is sent once more,
 * and a second conflict is reported with what changed. A transient failure may have landed, so the
 * job is re-read before the call is sent again, within the deadline.
 */
export async function mutateJob(
  client: PelotonClient,
  jobId: string,
  m: JobMutation,
  deadline: Deadline,
  first?: JobDetail,
  warn?: (message: string) => Promise<void>,
): Promise<MutationOutcome> {
  let detail = first ?? (await client.getJob(jobId, { deadline }));
  let conflicts = 0;
  for (let attempt = 1; ; attempt++) {
    if (!m.needed(detail)) return { sent: false, detail };
    const version = versionOf(detail);
    try {
      return { sent: true, ref: await m.send({ jobId, version }) };
    } catch (err) {
      const e = ClusterformError.from(err, m.operation);
      if (isStaleVersion(e)) {
        detail = await client.getJob(jobId, { deadline });
        if (++conflicts > 1) throw conflict(m, version, detail, e);
        if (m.needed(detail)) {
          await warn?.(`job ${jobId} was changed by someone else (version ${version} -> ${versionOf(detail)}, ${describeWorkflow(detail)}); ${m.operation.split(" ")[0]} is still needed and is sent again`);
        }
        continue;
      }
      if (!isTransient(e) || deadline.expired()) throw e;
      await realSleep(Math.min(backoffDelayMs(attempt), deadline.remainingMs()));
      detail = await client.getJob(jobId, { deadline });
    }
  }
}
