import { JobState } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { ImportDefinition } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { orMissing, pelotonClient } from "../common";
import { jobInputsOf } from "./import-spec";
import { jobOutputs } from "./job-status";
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
