import { z } from "zod";
import { describeValue, intInRange, isUnknown, orUnknown } from "../../../core/validation";
import { count, flag, nonEmpty, nonNegative, positive, stringMap, text } from "../schema-blocks";

/** A command check (the only kind of health check the v1alpha pod spec can carry). */
export interface HealthCheckInputs {
  command: string;
  enabled?: boolean;
  initialIntervalSecs?: number;
  intervalSecs?: number;
  maxConsecutiveFailures?: number;
  timeoutSecs?: number;
}

/** One container of a pod, as validated. */
export interface ContainerInputs {
  name: string;
  image?: string;
  command?: { value: string; arguments?: string[]; shell?: boolean };
  resources: { cpu: number; memoryMb: number; diskMb?: number; gpu?: number; fdLimit?: number };
  ports?: { name: string; value?: number; envName?: string }[];
  environment?: Record<string, string>;
  livenessCheck?: HealthCheckInputs;
  readinessCheck?: HealthCheckInputs;
}

/** A pod spec, as validated. */
export interface PodInputs {
  containers: ContainerInputs[];
  labels?: Record<string, string>;
  killGracePeriodSeconds?: number;
  revocable?: boolean;
}

const healthCheck = orUnknown(
  z
    .object({
      command: nonEmpty(),
      enabled: flag().optional(),
      initialIntervalSecs: count().optional(),
      intervalSecs: intInRange(1, 86_400).optional(),
      maxConsecutiveFailures: intInRange(1, 1_000).optional(),
      timeoutSecs: intInRange(1, 86_400).optional(),
    })
    .strict(),
);

const port = orUnknown(
  z
    .object({
      name: nonEmpty(),
      value: intInRange(1, 65_535).optional(),
      envName: text().optional(),
    })
    .strict()
    .superRefine((p, ctx) => {
      if (p.value === undefined && !p.envName) {
        ctx.addIssue({ code: "custom", path: ["value"], message: "is required unless envName asks for a dynamic port", input: undefined });
      }
    }),
);

const container = orUnknown(
  z
    .object({
      name: nonEmpty(),
      image: nonEmpty().optional(),
      command: orUnknown(
        z.object({ value: text(), arguments: orUnknown(z.array(orUnknown(z.string()))).optional(), shell: flag().optional() }).strict(),
      ).optional(),
      resources: orUnknown(
        z
          .object({
            cpu: positive(),
            memoryMb: positive(),
            diskMb: nonNegative().optional(),
            gpu: nonNegative().optional(),
            fdLimit: count().optional(),
          })
          .strict(),
      ),
      ports: orUnknown(z.array(port)).optional(),
      environment: stringMap().optional(),
      livenessCheck: healthCheck.optional(),
      readinessCheck: healthCheck.optional(),
    })
    .strict()
    .superRefine((c, ctx) => {
      const names = new Set<string>();
      (Array.isArray(c.ports) ? c.ports : []).forEach((p, i) => {
        if (isUnknown(p) || isUnknown(p.name)) return;
        if (names.has(p.name)) ctx.addIssue({ code: "custom", path: ["ports", i, "name"], message: `must be unique in the container: ${describeValue(p.name)} appears twice`, input: p.name });
        names.add(p.name);
      });
    }),
);

/** A pod spec: at least one container, container names unique. */
export const podSchema = orUnknown(
  z
    .object({
      containers: orUnknown(z.array(container).min(1)),
      labels: stringMap().optional(),
      killGracePeriodSeconds: count().optional(),
      revocable: flag().optional(),
    })
    .strict()
    .superRefine((pod, ctx) => {
      if (!Array.isArray(pod.containers)) return;
      const seen = new Set<string>();
      pod.containers.forEach((c, i) => {
        if (isUnknown(c) || isUnknown(c.name)) return;
        if (seen.has(c.name)) {
          ctx.addIssue({ code: "custom", path: ["containers", i, "name"], message: `must be unique in the pod: ${describeValue(c.name)} appears twice`, input: c.name });
        }
        seen.add(c.name);
      });
    }),
);
