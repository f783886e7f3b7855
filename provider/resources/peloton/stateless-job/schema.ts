import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { deriveName } from "../../../core/naming";
import { describeValue, intInRange, isUnknown, oneOf, orUnknown, UNKNOWN } from "../../../core/validation";
import { timeouts, type Timeouts } from "../../fields";
import { deterministicUuid } from "../common";
import { count, flag, nonEmpty, stringMap, text } from "../schema-blocks";
import { type PodInputs, podSchema } from "./pod-schema";

/** The largest job Clusterform accepts. */
export const MAX_INSTANCES = 10_000;

/** How a configuration change rolls out, as validated. */
export interface UpdatePolicyInputs {
  batchSize?: number;
  maxInstanceRetries?: number;
  maxTolerableInstanceFailures?: number;
  rollbackOnFailure?: boolean;
  inPlace?: boolean;
  startPaused?: boolean;
}

/** Validated inputs of a stateless job. */
export interface StatelessJobInputs {
  owner: string;
  resourceName: string;
  name?: string;
  respoolId: string;
  instanceCount: number;
  defaultSpec: PodInputs;
  instanceSpec?: Record<string, PodInputs>;
  sla?: { priority?: number; preemptible?: boolean; revocable?: boolean; maximumUnavailableInstances?: number };
  labels?: Record<string, string>;
  /** The job's `owner` field (the SDK's `owner` argument; `owner` itself is the ownership marker). */
  jobOwner?: string;
  owningTeam?: string;
  description?: string;
  updatePolicy?: UpdatePolicyInputs;
  desiredState?: "RUNNING" | "KILLED";
  restartNonce?: string;
  /** Derived: the job id, a UUID of the owner and the pool. */
  jobId?: string;
  timeouts?: Timeouts;
}

const updatePolicy = orUnknown(
  z
    .object({
      batchSize: intInRange(1, MAX_INSTANCES).optional(),
      maxInstanceRetries: count(1_000).optional(),
      maxTolerableInstanceFailures: count(MAX_INSTANCES).optional(),
      rollbackOnFailure: flag().optional(),
      inPlace: flag().optional(),
      startPaused: flag().optional(),
    })
    .strict(),
);

const sla = orUnknown(
  z
    .object({
      priority: count().optional(),
      preemptible: flag().optional(),
      revocable: flag().optional(),
      maximumUnavailableInstances: intInRange(1, MAX_INSTANCES).optional(),
    })
    .strict(),
);

/** Instance overrides: keys are instance ids below `instanceCount`. */
const instanceSpec = orUnknown(
  z.record(z.string(), podSchema).superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: "must be an instance id (0, 1, 2, ...)", params: { mapKey: true }, input: key });
      }
    }
  }),
);

const restartNonce = orUnknown(
  z.unknown().transform((v, ctx) => {
    if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) return String(v);
    ctx.addIssue({ code: "custom", message: `must be a string or number, got ${describeValue(v)}`, input: v });
    return z.NEVER;
  }),
);

const known = (v: unknown): v is number => typeof v === "number" && !isUnknown(v);

export const statelessJobSchema: z.ZodType<StatelessJobInputs, unknown> = z
  .object({
    owner: z.string().min(1),
    resourceName: z.string().min(1),
    name: nonEmpty().optional(),
    respoolId: nonEmpty(),
    instanceCount: intInRange(1, MAX_INSTANCES),
    defaultSpec: podSchema,
    instanceSpec: instanceSpec.optional(),
    sla: sla.optional(),
    labels: stringMap().optional(),
    jobOwner: text().optional(),
    owningTeam: text().optional(),
    description: text().optional(),
    updatePolicy: updatePolicy.optional(),
    desiredState: oneOf(["RUNNING", "KILLED"]).optional(),
    restartNonce: restartNonce.optional(),
    jobId: z.string().optional(),
    timeouts: timeouts(),
  })
  .strict()
  .superRefine((job, ctx) => {
    if (known(job.instanceCount) && job.instanceSpec && !isUnknown(job.instanceSpec)) {
      for (const key of Object.keys(job.instanceSpec)) {
        if (/^\d+$/.test(key) && Number(key) >= job.instanceCount) {
          ctx.addIssue({
            code: "custom",
            path: ["instanceSpec", key],
            params: { mapEntry: true },
            message: `overrides instance ${key}, but instanceCount ${job.instanceCount} has instances 0 to ${job.instanceCount - 1}`,
            input: key,
          });
        }
      }
    }
    const batch = job.updatePolicy && !isUnknown(job.updatePolicy) ? job.updatePolicy.batchSize : undefined;
    const maxDown = job.sla && !isUnknown(job.sla) ? job.sla.maximumUnavailableInstances : undefined;
    if (known(batch) && known(maxDown) && batch > maxDown) {
      ctx.addIssue({
        code: "custom",
        path: ["updatePolicy", "batchSize"],
        message: `must be at most sla.maximumUnavailableInstances ${maxDown} (a batch takes that many instances down at once), got ${batch}`,
        input: batch,
      });
    }
  });

const REPLACE_JOB = { kind: "update", operation: "ReplaceJob" } as const;

/**
 * Every field of the job's configuration is one ReplaceJob; the pool replaces the job (Peloton
 * refuses to move a job); `desiredState` is StopJob or StartJob; `restartNonce` a RestartJob; the
 * update policy only shapes the next rollout.
 */
export const statelessJobPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  jobId: { kind: "ignore" },
  updatePolicy: { kind: "ignore" },
  respoolId: { kind: "replace" },
  name: REPLACE_JOB,
  instanceCount: REPLACE_JOB,
  defaultSpec: REPLACE_JOB,
  instanceSpec: REPLACE_JOB,
  sla: REPLACE_JOB,
  labels: REPLACE_JOB,
  jobOwner: REPLACE_JOB,
  owningTeam: REPLACE_JOB,
  description: REPLACE_JOB,
  desiredState: { kind: "update", operation: "StopJob/StartJob" },
  restartNonce: { kind: "update", operation: "RestartJob" },
};

/**
 * Fills the derived name and the job id: a UUID of the owner and the pool, so an interrupted create
 * finds its job again, and a replacement (a new pool) gets a new id.
 */
export function completeStatelessJob<T extends StatelessJobInputs>(olds: Record<string, unknown>, news: T): T {
  const name = news.name ?? deriveName(news.resourceName, JSON.stringify([news.owner]));
  const keep = typeof olds.jobId === "string" && olds.owner === news.owner && olds.respoolId === news.respoolId;
  const jobId = isUnknown(news.respoolId) ? UNKNOWN : keep ? (olds.jobId as string) : deterministicUuid(news.owner, news.respoolId);
  return { ...news, name, jobId };
}

/** Defaults: a rolling update of a large job takes long on real clusters. */
export const JOB_TIMEOUTS: Required<Timeouts> = { create: "30m", update: "1h", delete: "30m" };
