import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { dnsLabel, intInRange, orUnknown } from "../../../core/validation";
import { identityFields, timeouts, type Timeouts } from "../../fields";
import { userLabels } from "../fields";

/** The longest retention: one year. 0 keeps the snapshot until deleted. */
export const RETENTION_HOURS = { min: 0, max: 8760 } as const;

/** Validated inputs of a snapshot. */
export interface SnapshotInputs {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  vclusterName: string;
  namespace: string;
  description?: string;
  retentionHours?: number;
  labels?: Record<string, string>;
  includeWorkloads?: boolean;
  timeouts?: Timeouts;
}

/** The snapshot schema. */
export const snapshotSchema: z.ZodType<SnapshotInputs, unknown> = z
  .object({
    ...identityFields(dnsLabel({ maxLength: 63 })),
    autoNamed: z.boolean().optional(),
    vclusterName: dnsLabel({ maxLength: 63 }),
    namespace: dnsLabel({ maxLength: 63 }),
    description: orUnknown(z.string()).optional(),
    retentionHours: intInRange(RETENTION_HOURS.min, RETENTION_HOURS.max).optional(),
    labels: userLabels().optional(),
    includeWorkloads: orUnknown(z.boolean()).optional(),
    timeouts: timeouts(),
  })
  .strict();

/** The fields of a snapshot: a snapshot is immutable, so every change replaces it. */
export const SNAPSHOT_FIELDS = ["name", "vclusterName", "namespace", "description", "retentionHours", "labels", "includeWorkloads"] as const;

/** The policy table of `vcluster:Snapshot`. */
export const snapshotPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  autoNamed: { kind: "ignore" },
  ...Object.fromEntries(SNAPSHOT_FIELDS.map((f) => [f, { kind: "replace" }])),
};

/** Inputs that seed derived snapshot names. */
export function snapshotReplaceFields(inputs: Record<string, unknown>): unknown[] {
  return SNAPSHOT_FIELDS.filter((f) => f !== "name").map((f) => inputs[f]);
}

/** Default timeouts. */
export const SNAPSHOT_TIMEOUTS: Required<Timeouts> = { create: "20m", update: "20m", delete: "10m" };
