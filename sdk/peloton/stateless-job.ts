import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";
import type { Timeouts } from "./resource-pool";

type In<T> = pulumi.Input<T>;

/** A command health check (the only kind the v1alpha pod spec carries). */
export interface HealthCheckArgs {
  /** Shell command; exit code 0 means healthy. */
  command: In<string>;
  /** @default true */
  enabled?: In<boolean>;
  /** Seconds before the first check. @default 0 */
  initialIntervalSecs?: In<number>;
  /** Seconds between checks, 1 to 86400. @default 10 */
  intervalSecs?: In<number>;
  /** Failures in a row that make the container unhealthy, 1 to 1000. @default 3 */
  maxConsecutiveFailures?: In<number>;
  /** Seconds a check may take, 1 to 86400. @default 5 */
  timeoutSecs?: In<number>;
}

/** One container of a pod. */
export interface ContainerArgs {
  /** Unique in the pod. */
  name: In<string>;
  /** Docker image, e.g. `"nginx:1.27"`. @default none (Mesos container without image) */
  image?: In<string>;
  /** What the container runs. @default the image's entrypoint */
  command?: In<{ value: In<string>; arguments?: In<In<string>[]>; shell?: In<boolean> }>;
  /** Per-container limits: `cpu` and `memoryMb` > 0; `diskMb`, `gpu` >= 0 (default 0); `fdLimit` (default 0: none). */
  resources: In<{ cpu: In<number>; memoryMb: In<number>; diskMb?: In<number>; gpu?: In<number>; fdLimit?: In<number> }>;
  /** Named ports; `value` 1-65535, or `envName` for a dynamic port. Names unique. @default [] */
  ports?: In<In<{ name: In<string>; value?: In<number>; envName?: In<string> }>[]>;
  /** Environment variables. @default {} */
  environment?: In<Record<string, In<string>>>;
  /** Liveness check. @default none */
  livenessCheck?: In<HealthCheckArgs>;
  /** Readiness check. @default none */
  readinessCheck?: In<HealthCheckArgs>;
}

/** A pod: at least one container. */
export interface PodSpecArgs {
  /** Containers, names unique. */
  containers: In<In<ContainerArgs>[]>;
  /** Pod labels. @default {} */
  labels?: In<Record<string, In<string>>>;
  /** Seconds between SIGTERM and SIGKILL. @default 0 (Peloton's default) */
  killGracePeriodSeconds?: In<number>;
  /** Run on revocable (slack) resources. @default false */
  revocable?: In<boolean>;
}

/** How a configuration change (ReplaceJob) or a restart rolls through the instances. */
export interface UpdatePolicyArgs {
  /** Instances updated at once, 1 or more, at most `sla.maximumUnavailableInstances`. @default 1 */
  batchSize?: In<number>;
  /** Times one instance is retried before it counts as failed; 0 retries forever (Peloton's meaning). @default 3 */
  maxInstanceRetries?: In<number>;
  /** Failed instances tolerated; one more fails (or rolls back) the update; 0 tolerates any number (Peloton's meaning). @default 1 */
  maxTolerableInstanceFailures?: In<number>;
  /** Roll back to the previous configuration when the update fails. @default true */
  rollbackOnFailure?: In<boolean>;
  /** Prefer the hosts the instances ran on. @default false */
  inPlace?: In<boolean>;
  /** Start the update paused; `pulumi up` then waits until someone resumes it. @default false */
  startPaused?: In<boolean>;
}

/** Arguments of {@link StatelessJob}. */
export interface StatelessJobArgs {
  /** Job name. In place (ReplaceJob). @default the resource name plus a short hash */
  name?: In<string>;
  /** The pool the job runs in, e.g. `pool.id`. Changing it replaces the job. */
  respoolId: In<string>;
  /** Number of instances, 1 to 10000. In place (ReplaceJob). */
  instanceCount: In<number>;
  /** The pod every instance runs unless `instanceSpec` overrides it. In place (ReplaceJob, rolling). */
  defaultSpec: In<PodSpecArgs>;
  /** Per-instance pods, keyed by instance id below `instanceCount`. In place (ReplaceJob). @default {} */
  instanceSpec?: In<Record<string, In<PodSpecArgs>>>;
  /** Priority, preemption and how many instances may be down at once. In place (ReplaceJob). @default {} */
  sla?: In<{ priority?: In<number>; preemptible?: In<boolean>; revocable?: In<boolean>; maximumUnavailableInstances?: In<number> }>;
  /** Job labels. In place (ReplaceJob). @default {} */
  labels?: In<Record<string, In<string>>>;
  /** The job's owner (a user or service name). In place (ReplaceJob). @default "" */
  owner?: In<string>;
  /** The owning team. In place (ReplaceJob). @default "" */
  owningTeam?: In<string>;
  /** Free text. In place (ReplaceJob). @default "" */
  description?: In<string>;
  /** How changes roll out; changing it alone changes nothing on the platform. @default see {@link UpdatePolicyArgs} */
  updatePolicy?: In<UpdatePolicyArgs>;
  /** `"RUNNING"` or `"KILLED"`: StartJob or StopJob in place. @default "RUNNING" */
  desiredState?: In<string>;
  /** Any new value restarts every instance in batches (RestartJob). @default none */
  restartNonce?: In<string | number>;
  /** Time limits; an update includes its whole rollout. @default see {@link Timeouts} */
  timeouts?: In<Timeouts>;
}

/** The job's last workflow, as outputs. */
export interface WorkflowOutput {
  type: string;
  state: string;
  instancesCompleted: number;
  instancesRemaining: number;
  instancesFailed: number;
}

/**
 * A Peloton stateless job (v1alpha JobService). Any configuration change is exactly one ReplaceJob
 * that rolls through the instances in batches of `updatePolicy.batchSize`, and `pulumi up` waits
 * for that workflow; a failed or rolled back rollout fails the `up` and leaves the change pending.
 */
export class StatelessJob extends DynamicResource {
  /** The job id, a UUID derived from the stack, the resource and the pool. */
  declare readonly jobId: pulumi.Output<string>;
  /** The job name. */
  declare readonly name: pulumi.Output<string>;
  /** The entity version `<config>-<desiredState>-<workflow>` after the last operation. */
  declare readonly version: pulumi.Output<string>;
  /** The job state: RUNNING, KILLED, PENDING... */
  declare readonly state: pulumi.Output<string>;
  /** Pods by state, e.g. `{ RUNNING: 10 }`. */
  declare readonly podStats: pulumi.Output<Record<string, number>>;
  /** The last workflow (update or restart): type, state and counts. */
  declare readonly workflow: pulumi.Output<WorkflowOutput | null>;

  constructor(name: string, args: StatelessJobArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "peloton:StatelessJob",
      name,
      {
        name: args.name,
        respoolId: args.respoolId,
        instanceCount: args.instanceCount,
        defaultSpec: args.defaultSpec,
        instanceSpec: args.instanceSpec,
        sla: args.sla,
        labels: args.labels,
        jobOwner: args.owner,
        owningTeam: args.owningTeam,
        description: args.description,
        updatePolicy: args.updatePolicy,
        desiredState: args.desiredState,
        restartNonce: args.restartNonce,
        timeouts: args.timeouts,
        ...identityInputs(name, "peloton:StatelessJob", opts),
        jobId: undefined,
        version: undefined,
        state: undefined,
        podStats: undefined,
        workflow: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
