import type { JobSpec } from "../../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { ContainerSpec, HealthCheckSpec, PodSpec } from "../../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";

// The inverse of job-spec.ts: a stored JobSpec back to the inputs that produce it. A value equal to
// what job-spec.ts sends for a missing input is left out, so the inputs are the ones a program
// written from them would give (and check leaves as they are).

type Props = Record<string, unknown>;

/** The object without its undefined entries, or undefined when none is left. */
function compact(props: Props): Props | undefined {
  const kept = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** `value` unless it is the default `fallback`. */
const unless = <T>(value: T, fallback: T): T | undefined => (value === fallback ? undefined : value);

const labelMap = (labels: readonly { key: string; value: string }[]) => compact(Object.fromEntries(labels.map((l) => [l.key, l.value])));

function healthCheckInputs(check: HealthCheckSpec | undefined): Props | undefined {
  if (!check) return undefined;
  return compact({
    command: check.commandCheck?.command ?? "",
    enabled: unless(check.enabled, true),
    initialIntervalSecs: unless(check.initialIntervalSecs, 0),
    intervalSecs: unless(check.intervalSecs, 10),
    maxConsecutiveFailures: unless(check.maxConsecutiveFailures, 3),
    timeoutSecs: unless(check.timeoutSecs, 5),
  });
}

function containerInputs(c: ContainerSpec): Props {
  const r = c.resource;
  const command = c.command;
  const ports = c.ports.map((p) => compact({ name: p.name, value: unless(p.value, 0), envName: unless(p.envName, "") }));
  return compact({
    name: c.name,
    image: c.container?.docker?.image || undefined,
    // A command message with no value carries only the environment.
    command: command?.value ? compact({ value: command.value, arguments: command.arguments.length > 0 ? [...command.arguments] : undefined, shell: unless(command.shell, true) }) : undefined,
    resources: compact({
      cpu: r?.cpuLimit ?? 0,
      memoryMb: r?.memLimitMb ?? 0,
      diskMb: unless(r?.diskLimitMb ?? 0, 0),
      gpu: unless(r?.gpuLimit ?? 0, 0),
      fdLimit: unless(r?.fdLimit ?? 0, 0),
    }),
    ports: ports.length > 0 ? ports : undefined,
    environment: compact(Object.fromEntries((command?.environment?.variables ?? []).map((v) => [v.name, v.value]))),
    livenessCheck: healthCheckInputs(c.livenessCheck),
    readinessCheck: healthCheckInputs(c.readinessCheck),
  }) as Props;
}

function podInputs(pod: PodSpec | undefined): Props {
  return compact({
    containers: (pod?.containers ?? []).map(containerInputs),
    labels: labelMap(pod?.labels ?? []),
    killGracePeriodSeconds: unless(pod?.killGracePeriodSeconds ?? 0, 0),
    revocable: unless(pod?.revocable ?? false, false),
  }) as Props;
}

/** The inputs a stored JobSpec was created from, as far as the spec tells. */
export function jobInputsOf(spec: JobSpec): Props {
  const instanceSpec = Object.fromEntries(Object.entries(spec.instanceSpec).map(([index, pod]) => [index, podInputs(pod)]));
  return compact({
    name: spec.name,
    respoolId: spec.respoolId?.value,
    instanceCount: spec.instanceCount,
    defaultSpec: podInputs(spec.defaultSpec),
    instanceSpec: compact(instanceSpec),
    sla: compact({
      priority: unless(spec.sla?.priority ?? 0, 0),
      preemptible: unless(spec.sla?.preemptible ?? false, false),
      revocable: unless(spec.sla?.revocable ?? false, false),
      maximumUnavailableInstances: unless(spec.sla?.maximumUnavailableInstances ?? 0, 0),
    }),
    labels: labelMap(spec.labels),
    jobOwner: spec.owner || undefined,
    owningTeam: spec.owningTeam || undefined,
    description: spec.description || undefined,
  }) as Props;
}
