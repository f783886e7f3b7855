import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { intInRange } from "../../../core/validation";
import { identity, instanceType, objectName, userLabels } from "../shared-schema";
import { timeouts, type Timeouts } from "../../fields";

/** Validated inputs of a cma-ssh node pool. */
export interface NodePoolInputs {
  clusterName: string;
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  instanceType: string;
  count: number;
  labels?: Record<string, string>;
  timeouts?: Timeouts;
}

/** Machine counts a pool may have. */
export const POOL_COUNT = { min: 0, max: 1000 } as const;

export const nodePoolSchema: z.ZodType<NodePoolInputs, unknown> = z
  .object({
    ...identity,
    autoNamed: z.boolean().optional(),
    clusterName: objectName(),
    instanceType: instanceType(),
    count: intInRange(POOL_COUNT.min, POOL_COUNT.max),
    labels: userLabels().optional(),
    timeouts: timeouts(),
  })
  .strict();

/** How each input is changed: only the count changes in place (ScaleNodePool). */
export const nodePoolPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  autoNamed: { kind: "ignore" },
  clusterName: { kind: "replace" },
  name: { kind: "replace" },
  instanceType: { kind: "replace" },
  labels: { kind: "replace" },
  count: { kind: "update", operation: "ScaleNodePool" },
};

/**
 * Inputs that force replacement, and so seed derived names. Taken exactly as the planner compares
 * them (no labels and `{}` differ there), so every replacement gets a new name.
 */
export function nodePoolReplaceFields(inputs: Record<string, unknown>): unknown[] {
  return [inputs.clusterName, inputs.instanceType, inputs.labels];
}

/** Default timeouts of pool operations. */
export const NODE_POOL_TIMEOUTS: Required<Timeouts> = { create: "20m", update: "20m", delete: "20m" };
