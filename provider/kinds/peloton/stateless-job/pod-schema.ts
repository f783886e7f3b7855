import { z } from "zod";
import { describeValue, isUnknown, orUnknown } from "../../../core/validation";
import { optional, required, type Value, v } from "../../../core/definition/values";
import { count, flag, nonEmpty, nonNegative, positive, stringMap, text } from "../schema-blocks";

// The pod spec of a stateless job, every field written once: the validator, the SDK's nested Args
// types and the package schema's object types all come from these definitions.

const str = (validate: z.ZodType<string, unknown>): Value<string> => ({ type: { kind: "string" }, validate });
const num = (validate: z.ZodType<number, unknown>): Value<number> => ({ type: { kind: "number" }, validate });
const int = (validate: z.ZodType<number, unknown>): Value<number> => ({ type: { kind: "integer" }, validate });
const stringMapValue = (): Value<Record<string, string>> => ({ type: { kind: "map", of: { kind: "string" } }, validate: stringMap() });

const healthCheck = v.object("HealthCheck", "A command health check (the only kind the v1alpha pod spec carries).", {
  command: required(str(nonEmpty()), { description: "Shell command; exit code 0 means healthy." }),
  enabled: optional({ type: { kind: "boolean" }, validate: flag() }, { description: "Whether the check runs.", default: "true" }),
  initialIntervalSecs: optional(int(count()), { description: "Seconds before the first check.", default: "0" }),
  intervalSecs: optional(v.int(1, 86_400), { description: "Seconds between checks.", default: "10" }),
  maxConsecutiveFailures: optional(v.int(1, 1_000), { description: "Failures in a row that make the container unhealthy.", default: "3" }),
  timeoutSecs: optional(v.int(1, 86_400), { description: "Seconds a check may take.", default: "5" }),
});

const port = v.object(
  "Port",
  "A named port of a container.",
  {
    name: required(str(nonEmpty()), { description: "Port name, unique in the container." }),
    value: optional(v.int(1, 65_535), { description: "Static port number.", default: "none: give `envName` for a dynamic port" }),
    envName: optional(str(text()), { description: "Environment variable that receives a dynamic port.", default: "none" }),
  },
  (p, ctx) => {
    if (p.value === undefined && !p.envName) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "is required unless envName asks for a dynamic port", input: undefined });
    }
  },
);

const command = v.object("Command", "What a container runs.", {
  value: required(str(text()), { description: "The command or executable." }),
  arguments: optional(
    { type: { kind: "list", of: { kind: "string" } }, validate: orUnknown(z.array(orUnknown(z.string()))) },
    { description: "Its arguments.", default: "[]" },
  ),
  shell: optional({ type: { kind: "boolean" }, validate: flag() }, { description: "Run `value` through a shell.", default: "true" }),
});

const resources = v.object("ContainerResources", "Per-container limits.", {
  cpu: required(num(positive()), { description: "CPUs, > 0." }),
  memoryMb: required(num(positive()), { description: "Memory in MB, > 0." }),
  diskMb: optional(num(nonNegative()), { description: "Disk in MB, >= 0.", default: "0" }),
  gpu: optional(num(nonNegative()), { description: "GPUs, >= 0.", default: "0" }),
  fdLimit: optional(int(count()), { description: "File descriptor limit.", default: "0: none" }),
});

const container = v.object(
  "Container",
  "One container of a pod.",
  {
    name: required(str(nonEmpty()), { description: "Unique in the pod." }),
    image: optional(str(nonEmpty()), { description: 'Docker image, e.g. `"nginx:1.27"`, sent as `container.docker.image`.', default: "none (Mesos container without image)" }),
    command: optional(command, { description: "What the container runs.", default: "the image's entrypoint" }),
    resources: required(resources, { description: "Per-container limits." }),
    ports: optional(
      { type: { kind: "list", of: port.type }, validate: orUnknown(z.array(port.validate)) },
      { description: "Named ports; `value` 1-65535, or `envName` for a dynamic port. Names unique.", default: "[]" },
    ),
    environment: optional(stringMapValue(), { description: "Environment variables, carried in the Mesos command.", default: "{}" }),
    livenessCheck: optional(healthCheck, { description: "Liveness check.", default: "none" }),
    readinessCheck: optional(healthCheck, { description: "Readiness check.", default: "none" }),
  },
  (c, ctx) => {
    const names = new Set<string>();
    (Array.isArray(c.ports) ? c.ports : []).forEach((p, i) => {
      if (isUnknown(p) || isUnknown(p.name)) return;
      if (names.has(p.name)) {
        ctx.addIssue({ code: "custom", path: ["ports", i, "name"], message: `must be unique in the container: ${describeValue(p.name)} appears twice`, input: p.name });
      }
      names.add(p.name);
    });
  },
);

/** A pod spec: at least one container, container names unique. */
export const podSpec = v.object(
  "PodSpec",
  "A pod: at least one container.",
  {
    containers: required(
      { type: { kind: "list", of: container.type }, validate: orUnknown(z.array(container.validate).min(1)) },
      { description: "Containers: at least one, names unique." },
    ),
    labels: optional(stringMapValue(), { description: "Pod labels.", default: "{}" }),
    killGracePeriodSeconds: optional(int(count()), { description: "Seconds between SIGTERM and SIGKILL.", default: "0 (Peloton's default)" }),
    revocable: optional({ type: { kind: "boolean" }, validate: flag() }, { description: "Run on revocable (slack) resources.", default: "false" }),
  },
  (pod, ctx) => {
    if (!Array.isArray(pod.containers)) return;
    const seen = new Set<string>();
    pod.containers.forEach((c, i) => {
      if (isUnknown(c) || isUnknown(c.name)) return;
      if (seen.has(c.name)) {
        ctx.addIssue({ code: "custom", path: ["containers", i, "name"], message: `must be unique in the pod: ${describeValue(c.name)} appears twice`, input: c.name });
      }
      seen.add(c.name);
    });
  },
);

type ValueType<V> = V extends Value<infer T> ? T : never;

/** A pod spec, as validated. */
export type PodInputs = ValueType<typeof podSpec>;
/** One container of a pod, as validated. */
export type ContainerInputs = ValueType<typeof container>;
/** A command check, as validated. */
export type HealthCheckInputs = ValueType<typeof healthCheck>;

/** The pod spec's validator. */
export const podSchema = podSpec.validate;
