import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { intInRange, orUnknown, semver } from "../../../core/validation";
import { identity, instanceType, userLabels } from "../shared-schema";
import { timeouts, type Timeouts } from "../../fields";

/** Validated inputs of a cma-ssh cluster. */
export interface ClusterInputs {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  kubernetesVersion: string;
  controlPlane: { instanceType: string; count: number; labels?: Record<string, string> };
  timeouts?: Timeouts;
}

/** Control plane machine counts cma-ssh accepts (it provisions one machine today, see contracts §1.5). */
export const CONTROL_PLANE_COUNT = { min: 1, max: 9 } as const;

export const clusterSchema: z.ZodType<ClusterInputs, unknown> = z
  .object({
    ...identity,
    autoNamed: z.boolean().optional(),
    kubernetesVersion: semver(),
    // The whole object is the unknown sentinel in preview when it comes from another resource's output.
    controlPlane: orUnknown(
      z
        .object({
          instanceType: instanceType(),
          count: intInRange(CONTROL_PLANE_COUNT.min, CONTROL_PLANE_COUNT.max),
          labels: userLabels().optional(),
        })
        .strict(),
    ),
    timeouts: timeouts(),
  })
  .strict();

/** How each input is changed: only the version changes in place (UpgradeCluster). */
export const clusterPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  autoNamed: { kind: "ignore" },
  name: { kind: "replace" },
  controlPlane: { kind: "replace" },
  kubernetesVersion: { kind: "update", operation: "UpgradeCluster" },
};

/** Inputs that force replacement, and so seed derived names. */
export function clusterReplaceFields(inputs: Record<string, unknown>): unknown[] {
  return [inputs.controlPlane];
}

/** Default timeouts: cma-ssh provisions machines, which takes minutes on real hardware. */
export const CLUSTER_TIMEOUTS: Required<Timeouts> = { create: "30m", update: "45m", delete: "30m" };
