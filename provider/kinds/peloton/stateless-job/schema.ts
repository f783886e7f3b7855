import { z } from "zod";
import { deriveName } from "../../../core/naming";
import { describeValue, isUnknown, orUnknown, UNKNOWN } from "../../../core/validation";
import { defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { ignored, inPlace, optional, replace, required, type Value, v } from "../../../core/definition/values";
import { defineCalls, eitherOf, extendCalls } from "../../../core/plan/calls";
import { deterministicUuid } from "../common";
import { count, flag, nonEmpty, stringMap, text } from "../schema-blocks";
import { podSchema, podSpec } from "./pod-schema";

/** The largest job Clusterform accepts. */
export const MAX_INSTANCES = 10_000;

const flagValue = (): Value<boolean> => ({ type: { kind: "boolean" }, validate: flag() });
const textValue = (): Value<string> => ({ type: { kind: "string" }, validate: text() });
const countValue = (max?: number): Value<number> => ({ type: { kind: "integer", min: 0, max }, validate: count(max) });

const updatePolicy = v.object("UpdatePolicy", "How a configuration change (ReplaceJob) or a restart rolls through the instances.", {
  batchSize: optional(v.int(1, MAX_INSTANCES), { description: "Instances updated at once, at most `sla.maximumUnavailableInstances`.", default: "1" }),
  maxInstanceRetries: optional(countValue(1_000), {
    description: "Times one instance is retried before it counts as failed; 0 retries forever (Peloton's meaning).",
    default: "3",
  }),
  maxTolerableInstanceFailures: optional(countValue(MAX_INSTANCES), {
    description: "Failed instances tolerated; one more fails (or rolls back) the update; 0 tolerates any number (Peloton's meaning).",
    default: "1",
  }),
  rollbackOnFailure: optional(flagValue(), { description: "Roll back to the previous configuration when the update fails.", default: "true" }),
  inPlace: optional(flagValue(), { description: "Prefer the hosts the instances ran on.", default: "false" }),
  startPaused: optional(flagValue(), { description: "Start the update paused; `pulumi up` then waits until someone resumes it (`peloton job workflow resume`).", default: "false" }),
});

const sla = v.object("Sla", "Priority, preemption and how many instances may be down at once.", {
  priority: optional(countValue(), { description: "Scheduling priority.", default: "0" }),
  preemptible: optional(flagValue(), { description: "May be preempted.", default: "false" }),
  revocable: optional(flagValue(), { description: "Runs on revocable resources.", default: "false" }),
  maximumUnavailableInstances: optional(v.int(1, MAX_INSTANCES), { description: "Most instances down at once.", default: "none" }),
});

/** How a configuration change rolls out, as validated. */
export type UpdatePolicyInputs = typeof updatePolicy extends Value<infer T> ? T : never;

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

const known = (value: unknown): value is number => typeof value === "number" && !isUnknown(value);

/**
 * The Peloton calls an in-place update of a job makes, in the order it makes them: start, the one
 * rolling update, restart, stop. operations.ts has an executor for each.
 */
export const JOB_UPDATE_CALLS = defineCalls("StartJob", "ReplaceJob", "RestartJob", "StopJob");

/** Every Peloton call a job's plans name, each written once: the update's, then create's and delete's. */
export const JOB_CALLS = extendCalls(JOB_UPDATE_CALLS, "CreateJob", "DeleteJob");

const REPLACE_JOB = inPlace(JOB_CALLS.ReplaceJob);

/** `peloton:StatelessJob`, every field written once. */
export const statelessJobKind = defineFields({
  type: "peloton:StatelessJob",
  description:
    "A Peloton stateless job (v1alpha JobService). Any configuration change is exactly one ReplaceJob that rolls through the " +
    "instances in batches of `updatePolicy.batchSize`, and `pulumi up` waits for that workflow; a failed or rolled back " +
    "rollout fails the `up` and leaves the change pending. The update time limit covers the whole rollout.",
  hidden: {
    ...OWNERSHIP,
    jobId: optional(v.custom({ kind: "string" }, z.string()), { description: "Derived: the job id, a UUID of the owner and the pool." }),
  },
  inputs: {
    respoolId: required(v.custom({ kind: "string" }, nonEmpty()), {
      description: "The leaf pool the job runs in, e.g. `pool.respoolId`. Peloton refuses to move a job, so a change replaces it.",
      policy: replace,
    }),
    name: optional(v.custom({ kind: "string" }, nonEmpty()), { computed: true, description: "Job name, not empty.", default: "the resource name, `-` and a 7-character hash", policy: REPLACE_JOB }),
    instanceCount: required(v.int(1, MAX_INSTANCES), {
      description: "Number of instances. A change starts the added instances and stops the removed ones; the others keep running.",
      policy: REPLACE_JOB,
    }),
    defaultSpec: required(podSpec, {
      description: "The pod every instance runs unless `instanceSpec` overrides it. A change rolls through the instances.",
      policy: REPLACE_JOB,
    }),
    instanceSpec: optional(v.custom({ kind: "map", of: podSpec.type }, instanceSpec), {
      description: "Per-instance pods, keyed by instance id below `instanceCount`.",
      default: "{}",
      policy: REPLACE_JOB,
    }),
    sla: optional(sla, { description: "Priority, preemption and how many instances may be down at once.", default: "{}", policy: REPLACE_JOB }),
    labels: optional(v.custom({ kind: "map", of: { kind: "string" } }, stringMap()), { description: "Job labels.", default: "{}", policy: REPLACE_JOB }),
    jobOwner: optional(textValue(), {
      description: "The job's owner (a user or service name), sent to Peloton as `jobOwner`.",
      default: '""',
      policy: REPLACE_JOB,
      names: { pulumi: "owner", terraform: "job_owner" },
    }),
    owningTeam: optional(textValue(), { description: "The owning team.", default: '""', policy: REPLACE_JOB }),
    description: optional(textValue(), { description: "Free text.", default: '""', policy: REPLACE_JOB }),
    desiredState: optional(v.oneOf(["RUNNING", "KILLED"]), {
      description: '`"RUNNING"` or `"KILLED"`: StartJob, then a wait until every instance runs, or StopJob, then a wait for KILLED.',
      default: '"RUNNING"',
      policy: inPlace(eitherOf(JOB_CALLS.StopJob, JOB_CALLS.StartJob)),
    }),
    restartNonce: optional(v.custom({ kind: "stringOrNumber" }, restartNonce), {
      description: "A string or a number; any new value restarts every instance, in batches of `updatePolicy.batchSize`.",
      default: "none",
      policy: inPlace(JOB_CALLS.RestartJob),
    }),
    updatePolicy: optional(updatePolicy, {
      description: "How changes roll out; changing it alone changes nothing on the platform.",
      default: "see the UpdatePolicy type",
      policy: ignored,
    }),
  },
  refine: (job, ctx) => {
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
  },
  outputs: {
    jobId: { type: { kind: "string" }, description: "The job id, a UUID derived from the stack, the resource and the pool; also the resource's id." },
    version: { type: { kind: "string" }, description: "The entity version `<config>-<desiredState>-<workflow>` after the last operation." },
    state: { type: { kind: "string" }, description: "The job state: RUNNING, KILLED, PENDING..." },
    podStats: { type: { kind: "map", of: { kind: "integer" } }, description: "Pods by state, e.g. `{ RUNNING: 10 }`." },
    workflow: {
      type: {
        kind: "object",
        name: "Workflow",
        description: "The job's last workflow.",
        fields: {
          type: required(v.string(), { description: "UPDATE, RESTART, ..." }),
          state: required(v.string(), { description: "The workflow's state." }),
          instancesCompleted: required(v.int(0, MAX_INSTANCES), { description: "Instances done." }),
          instancesRemaining: required(v.int(0, MAX_INSTANCES), { description: "Instances left." }),
          instancesFailed: required(v.int(0, MAX_INSTANCES), { description: "Instances failed." }),
        },
      },
      description: "The last workflow (update or restart): type, state and counts.",
      optional: true,
    },
  },
  timeouts: { create: "30m", update: "1h", delete: "30m" },
  deletionPolicy: true,
  importId: {
    shape: "the job id (a UUID)",
    example: "3f1e2d3c-4b5a-8697-a8b9-c0d1e2f3a4b5",
    unreported: ["updatePolicy", "restartNonce"],
  },
});

/** Validated inputs of a stateless job. */
export type StatelessJobInputs = InputsOf<typeof statelessJobKind.inputs, typeof statelessJobKind.hidden>;

export const statelessJobSchema = statelessJobKind.schema;

/**
 * Every field of the job's configuration is one ReplaceJob; the pool replaces the job (Peloton
 * refuses to move a job); `desiredState` is StopJob or StartJob; `restartNonce` a RestartJob; the
 * update policy only shapes the next rollout.
 */
export const statelessJobPolicies = statelessJobKind.policies;

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
export const JOB_TIMEOUTS = statelessJobKind.timeouts;
