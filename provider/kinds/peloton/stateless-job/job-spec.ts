import { createHash } from "node:crypto";
import type { JobSpecInput, UpdateSpecInput } from "../../../clients/peloton/types";
import { sortKeys } from "../../../core/sort-keys";
import { ContainerInfo_Type } from "../../../../proto/gen/mesos/v1/mesos_pb";
import { HealthCheckSpec_HealthCheckType } from "../../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import type { ContainerInputs, HealthCheckInputs, PodInputs } from "./pod-schema";
import type { StatelessJobInputs, UpdatePolicyInputs } from "./schema";

type PodSpecInput = NonNullable<JobSpecInput["defaultSpec"]>;
type ContainerSpecInput = NonNullable<PodSpecInput["containers"]>[number];

const labelList = (labels: Record<string, string> | undefined) =>
  Object.keys(labels ?? {})
    .sort()
    .map((key) => ({ key, value: labels![key] }));

function healthCheck(check: HealthCheckInputs | undefined) {
  if (!check) return undefined;
  return {
    enabled: check.enabled ?? true,
    type: HealthCheckSpec_HealthCheckType.COMMAND,
    commandCheck: { command: check.command },
    initialIntervalSecs: check.initialIntervalSecs ?? 0,
    intervalSecs: check.intervalSecs ?? 10,
    maxConsecutiveFailures: check.maxConsecutiveFailures ?? 3,
    timeoutSecs: check.timeoutSecs ?? 5,
  };
}

/** A container as the v1alpha pod spec carries it: image and command through the Mesos messages. */
function containerSpec(c: ContainerInputs): ContainerSpecInput {
  const env = Object.keys(c.environment ?? {})
    .sort()
    .map((name) => ({ name, value: c.environment![name] }));
  const hasCommand = c.command !== undefined || env.length > 0;
  return {
    name: c.name,
    resource: {
      cpuLimit: c.resources.cpu,
      memLimitMb: c.resources.memoryMb,
      diskLimitMb: c.resources.diskMb ?? 0,
      gpuLimit: c.resources.gpu ?? 0,
      fdLimit: c.resources.fdLimit ?? 0,
    },
    container: c.image ? { type: ContainerInfo_Type.DOCKER, docker: { image: c.image } } : undefined,
    command: hasCommand
      ? {
          value: c.command?.value,
          arguments: c.command?.arguments ?? [],
          shell: c.command?.shell ?? true,
          environment: env.length > 0 ? { variables: env } : undefined,
        }
      : undefined,
    livenessCheck: healthCheck(c.livenessCheck),
    readinessCheck: healthCheck(c.readinessCheck),
    ports: (c.ports ?? []).map((p) => ({ name: p.name, value: p.value ?? 0, envName: p.envName ?? "" })),
  };
}

function podSpec(pod: PodInputs): PodSpecInput {
  return {
    labels: labelList(pod.labels),
    containers: pod.containers.map(containerSpec),
    killGracePeriodSeconds: pod.killGracePeriodSeconds ?? 0,
    revocable: pod.revocable ?? false,
  };
}

/** The JobSpec Peloton stores for these inputs. */
export function toJobSpec(inputs: StatelessJobInputs): JobSpecInput {
  const instanceSpec: Record<number, PodSpecInput> = {};
  for (const [key, pod] of Object.entries(inputs.instanceSpec ?? {})) instanceSpec[Number(key)] = podSpec(pod);
  return {
    name: inputs.name,
    owner: inputs.jobOwner ?? "",
    owningTeam: inputs.owningTeam ?? "",
    description: inputs.description ?? "",
    labels: labelList(inputs.labels),
    instanceCount: inputs.instanceCount,
    sla: {
      priority: inputs.sla?.priority ?? 0,
      preemptible: inputs.sla?.preemptible ?? false,
      revocable: inputs.sla?.revocable ?? false,
      maximumUnavailableInstances: inputs.sla?.maximumUnavailableInstances ?? 0,
    },
    defaultSpec: podSpec(inputs.defaultSpec),
    instanceSpec,
    respoolId: { value: inputs.respoolId },
  };
}

/**
 * Default rollout: one instance at a time, each retried 3 times, one failed instance tolerated,
 * rolled back beyond that. (Peloton reads 0 retries and 0 tolerated failures as "no limit".)
 */
export const DEFAULT_UPDATE_POLICY: Required<UpdatePolicyInputs> = {
  batchSize: 1,
  maxInstanceRetries: 3,
  maxTolerableInstanceFailures: 1,
  rollbackOnFailure: true,
  inPlace: false,
  startPaused: false,
};

/** The UpdateSpec of a ReplaceJob. */
export function toUpdateSpec(policy: UpdatePolicyInputs | undefined): UpdateSpecInput {
  const p = { ...DEFAULT_UPDATE_POLICY, ...policy };
  return {
    batchSize: p.batchSize,
    maxInstanceRetries: p.maxInstanceRetries,
    maxTolerableInstanceFailures: p.maxTolerableInstanceFailures,
    rollbackOnFailure: p.rollbackOnFailure,
    inPlace: p.inPlace,
    startPaused: p.startPaused,
  };
}

/** The prefix of the workflow `opaque_data` Clusterform writes: a digest of what the workflow rolls to. */
export const OPAQUE_PREFIX = "clusterform:";

/** What a workflow started by Clusterform carries in `opaque_data`. */
export function opaqueFor(kind: "spec" | "restart", payload: unknown): string {
  const digest = createHash("sha256").update(JSON.stringify(sortKeys(payload))).digest("hex").slice(0, 32);
  return `${OPAQUE_PREFIX}${kind}:${digest}`;
}

