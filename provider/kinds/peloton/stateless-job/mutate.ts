import type { PelotonClient } from "../../../clients/peloton/client";
import type { JobDetail } from "../../../clients/peloton/job-methods";
import type { JobRef } from "../../../clients/peloton/types";
import type { Deadline } from "../../../core/deadline";
import { sendUnlessDone } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
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
 * and a second conflict is reported with what changed. Other failures follow the call policy
 * (core/create-or-adopt.ts sendUnlessDone): the job is read again before the call is sent again,
 * since a call whose answer was lost may have landed, and a call no longer needed is not sent.
 */
export async function mutateJob(
  client: PelotonClient,
  jobId: string,
  m: JobMutation,
  deadline: Deadline,
  first?: JobDetail,
  warn?: (message: string) => Promise<void>,
): Promise<MutationOutcome> {
  // `unread` is the caller's read, used by the first look; `current` is what the next send works from.
  let unread = first;
  let current: JobDetail | undefined;
  let conflicts = 0;
  const read = () => client.getJob(jobId, { deadline });
  const look = async (): Promise<MutationOutcome | undefined> => {
    current = unread ?? (await read());
    unread = undefined;
    return m.needed(current) ? undefined : { sent: false, detail: current };
  };
  // A stale version is an answer, not a failure of the policy's: read, and send once more if still needed.
  const send = async (): Promise<MutationOutcome> => {
    while (true) {
      const version = versionOf(current!);
      try {
        return { sent: true, ref: await m.send({ jobId, version }) };
      } catch (err) {
        const e = ClusterformError.from(err, m.operation);
        if (!isStaleVersion(e)) throw e;
        current = await read();
        if (++conflicts > 1) throw conflict(m, version, current, e);
        if (!m.needed(current)) return { sent: false, detail: current };
        await warn?.(`job ${jobId} was changed by someone else (version ${version} -> ${versionOf(current)}, ${describeWorkflow(current)}); ${m.operation.split(" ")[0]} is still needed and is sent again`);
      }
    }
  };
  return sendUnlessDone({ operation: m.operation, deadline, look, lookFirst: true, send });
}
