import type { JobDetail } from "../../../clients/peloton/job-methods";
import { JobState } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { Deadline } from "../../../core/deadline";
import { ALREADY_EXISTS } from "../../../core/call-policy";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { deadlineFor, readDeadline } from "../../fields";
import { type CreateContext, type OperationContext, PartialStateError, type ResourceOperations, withPartialState } from "../../../core/contract";
import { isNotFound, orMissing, pelotonClient } from "../common";
import { toJobSpec, toUpdateSpec } from "./job-spec";
import { jobOutputs } from "./job-status";
import { mutateJob } from "./mutate";
import { poolOf, type RolloutContext, restart, rollTo, setRunState, specOpaque } from "./rollout";
import { JOB_TIMEOUTS, type StatelessJobInputs, statelessJobPolicies } from "./schema";
import { waitForJobGone, waitForJobState, waitForWorkflow } from "./wait";
import { carryOut, type PlannedOperation } from "../../../core/plan/operation";

type Props = Record<string, unknown>;
const q = JSON.stringify;

/** Inputs that are the job's configuration: changed together by one ReplaceJob. */
const CONFIG_FIELDS = Object.entries(statelessJobPolicies)
  .filter(([, p]) => p.kind === "update" && p.operation === "ReplaceJob")
  .map(([field]) => field);

async function rolloutContext(ctx: OperationContext, jobId: string, deadline: Deadline): Promise<RolloutContext> {
  return { client: (await pelotonClient(ctx.config)), jobId, deadline, progress: ctx.report.progress, warn: ctx.report.warn };
}

/**
 * Sends CreateJob under the deterministic job id, unless the job exists: then it is what an
 * interrupted create of this resource left (the core confirms it may be adopted) and is returned
 * to be rolled to the inputs. A job an earlier send of this create made (its answer lost) is
 * waited for like a created one.
 */
async function createJob(ctx: CreateContext, inputs: StatelessJobInputs, deadline: Deadline): Promise<JobDetail | undefined> {
  const client = await pelotonClient(ctx.config);
  const jobId = inputs.jobId!;
  const policy = toUpdateSpec(inputs.updatePolicy);
  const createSpec = {
    batchSize: policy.batchSize,
    maxInstanceRetries: policy.maxInstanceRetries,
    maxTolerableInstanceFailures: policy.maxTolerableInstanceFailures,
    startPaused: policy.startPaused,
  };
  const { value, taken } = await createOrAdopt<{ detail?: JobDetail }>(ctx, {
    operation: `CreateJob job ${q(inputs.name)} (id ${jobId})`,
    deadline,
    find: async () => {
      const detail = await orMissing(() => client.getJob(jobId, { deadline }));
      return detail && { detail };
    },
    send: async () => {
      await client.createJob(toJobSpec(inputs), { jobId, createSpec, opaqueData: specOpaque(inputs), deadline });
      return {};
    },
    identify: () => ({ identity: jobId, id: jobId }),
    exists: ALREADY_EXISTS,
    target: "the job",
  });
  return taken === "adopted" ? value.detail : undefined;
}

/**
 * The inputs to record after a failed update: what actually runs. Steps that did not complete keep
 * their old values, so the next preview still shows them pending.
 */
export function recorded(olds: Props, news: StatelessJobInputs & Props, applied: ReadonlySet<string>): Props {
  const out: Props = { ...news };
  const kept = [...(applied.has("config") ? [] : CONFIG_FIELDS), ...["restartNonce", "desiredState"].filter((f) => !applied.has(f))];
  for (const field of kept) {
    // The engine's Struct conversion throws on undefined (and the provider then never answers).
    if (olds[field] === undefined) delete out[field];
    else out[field] = olds[field];
  }
  return out;
}

async function outputsNow(ctx: OperationContext, jobId: string, deadline: Deadline): Promise<Props> {
  return jobOutputs(jobId, await (await pelotonClient(ctx.config)).getJob(jobId, { deadline }));
}

/** Peloton stateless jobs: configuration by ReplaceJob rollouts, run state by StopJob/StartJob. */
export const statelessJobOperations: ResourceOperations<StatelessJobInputs> = {
  async create(ctx, inputs) {
    const deadline = deadlineFor(inputs, "create", JOB_TIMEOUTS);
    const jobId = inputs.jobId!;
    const adopted = await createJob(ctx, inputs, deadline);
    const rc = await rolloutContext(ctx, jobId, deadline);
    try {
      if (adopted) await rollTo(rc, inputs, true, adopted);
      else {
        await waitForWorkflow(rc.client, jobId, specOpaque(inputs), {
          what: `job ${q(jobId)} to start its ${inputs.instanceCount} instance(s)`,
          deadline,
          pool: poolOf(inputs),
          progress: rc.progress,
        });
      }
      if (inputs.desiredState === "KILLED") await setRunState(rc, inputs, "KILLED");
      return { id: jobId, outs: await outputsNow(ctx, jobId, deadline) };
    } catch (err) {
      const seen = await orMissing(() => rc.client.getJob(jobId, { deadline })).catch(() => undefined);
      const message = err instanceof Error ? err.message : String(err);
      throw new PartialStateError(
        `${message}; the job was created and is recorded in the stack: fix the cause and run \`pulumi up\` again, or replace it with \`pulumi up --replace <urn>\``,
        jobId,
        { ...inputs, ...(seen ? jobOutputs(jobId, seen) : { jobId }) },
        [message],
      );
    }
  },

  async read(ctx, id, props) {
    const detail = await orMissing(async () => (await pelotonClient(ctx.config)).getJob(id, { deadline: readDeadline(props, JOB_TIMEOUTS) }));
    return detail ? jobOutputs(id, detail) : undefined;
  },

  async update(ctx, id, olds, news, plan) {
    const deadline = deadlineFor(news, "update", JOB_TIMEOUTS);
    const rc = await rolloutContext(ctx, id, deadline);
    const goal = news.desiredState ?? "RUNNING";
    // The steps passed so far (in the plan's order), so that a failure records what actually runs.
    const starts = plan.operations.some((o) => o.call === "StartJob");
    const applied = new Set<string>(goal === "RUNNING" && !starts ? ["desiredState"] : []);
    const passed = (...fields: string[]) => {
      for (const f of fields) applied.add(f);
    };
    // The batch size a rollout or restart sends is the one its planned operation carries.
    const batched = (o: PlannedOperation): StatelessJobInputs & Props => ({ ...news, updatePolicy: { ...news.updatePolicy, batchSize: Number(o.args.batchSize) } });
    try {
      if (plan.diff.updates.length === 0) {
        // Nothing changed: the engine retries a create or update that failed; converge again.
        await rollTo(rc, news, goal === "RUNNING");
        if (goal === "KILLED") await setRunState(rc, news, "KILLED");
      }
      await carryOut("peloton:StatelessJob", plan.operations, {
        async StartJob() {
          await setRunState(rc, news, "RUNNING");
          passed("desiredState");
        },
        async ReplaceJob(o) {
          await rollTo(rc, batched(o), goal === "RUNNING");
          passed("config");
        },
        async RestartJob(o) {
          passed("config");
          await restart(rc, batched(o));
          passed("restartNonce");
        },
        async StopJob() {
          passed("config", "restartNonce");
          await setRunState(rc, news, "KILLED");
          passed("desiredState");
        },
      });
      return await outputsNow(ctx, id, deadline);
    } catch (err) {
      const seen = await orMissing(() => rc.client.getJob(id, { deadline })).catch(() => undefined);
      throw withPartialState(err, id, { ...recorded(olds, news, applied), ...(seen ? jobOutputs(id, seen) : {}) });
    }
  },

  async delete(ctx, id, props) {
    const deadline = deadlineFor(props, "delete", JOB_TIMEOUTS);
    const client = await pelotonClient(ctx.config);
    const detail = await orMissing(() => client.getJob(id, { deadline }));
    if (!detail) return;
    const count = Number(props.instanceCount ?? 0);
    try {
      if (detail.jobInfo?.status?.state !== JobState.KILLED) {
        await mutateJob(
          client,
          id,
          {
            operation: `StopJob job ${q(id)}`,
            needed: (d) => d.jobInfo?.status?.desiredState !== JobState.KILLED,
            send: (ref) => client.stopJob(ref, { deadline }),
          },
          deadline,
          detail,
        );
        await waitForJobState(client, id, "KILLED", count, { deadline, progress: ctx.report.progress });
      }
      await mutateJob(
        client,
        id,
        {
          operation: `DeleteJob job ${q(id)}`,
          needed: () => true,
          send: async (ref) => {
            await client.deleteJob(ref, { deadline });
            return ref;
          },
        },
        deadline,
      );
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    await waitForJobGone(client, id, deadline, ctx.report.progress);
  },
};
