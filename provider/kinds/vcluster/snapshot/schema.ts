import { dnsLabel } from "../../../core/validation";
import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { optional, replace, required, type Value, v } from "../../../core/definition/values";
import { userLabelsValue } from "../fields";

/** The longest retention: one year. 0 keeps the snapshot until deleted. */
export const RETENTION_HOURS = { min: 0, max: 8760 } as const;

const dnsName = (): Value<string> => ({ type: { kind: "string" }, validate: dnsLabel({ maxLength: 63 }) });

/** `vcluster:Snapshot`, every field written once. A snapshot is immutable: every change replaces it. */
export const snapshotKind = defineFields({
  type: "vcluster:Snapshot",
  description:
    "A snapshot of a vcluster (SnapshotVCluster). Create waits for READY; an expired snapshot reads as gone, so a refresh " +
    "drops it and the next up takes a new one. Use its `snapshotId` as a VCluster's `restoreFrom`. A snapshot is immutable: " +
    "changing any field replaces it.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    name: optional(dnsName(), {
      computed: true,
      description: "The snapshot name, a DNS-1123 label of at most 63 characters, unique in the namespace.",
      default: "the resource name, `-` and a 7-character hash", policy: replace }),
    vclusterName: required(dnsName(), { description: "The vcluster to snapshot, usually `vc.name`; it must be RUNNING.", policy: replace }),
    namespace: required(dnsName(), { description: "The vcluster's namespace, a DNS-1123 label; the snapshot lives there too.", policy: replace }),
    description: optional(v.string(), { description: "Free text.", default: '""', policy: replace }),
    retentionHours: optional(v.int(RETENTION_HOURS.min, RETENTION_HOURS.max), {
      description: "Hours until the platform deletes the snapshot; 0 keeps it until deleted.",
      default: "0",
      defaultValue: 0,
      policy: replace,
    }),
    labels: optional(userLabelsValue(), {
      description: "Kubernetes labels; `clusterform.dev/owner`, `owner` and `project` are reserved.",
      default: "{}",
      policy: replace,
    }),
    includeWorkloads: optional(v.boolean(), {
      description: "Include workloads, not only the control plane state.",
      default: "false",
      defaultValue: false,
      policy: replace,
    }),
  },
  outputs: {
    snapshotId: { type: { kind: "string" }, description: "The platform's id, e.g. `snap-1700000000-3`: what `restoreFrom` takes." },
    status: { type: { kind: "string" }, description: "READY after a successful up." },
    vclusterId: { type: { kind: "string" }, description: "The snapshotted vcluster's id." },
    sizeBytes: { type: { kind: "integer" }, description: "The snapshot's size in bytes." },
    storageUri: { type: { kind: "string" }, description: "Where the platform stores the snapshot." },
    expireTime: { type: { kind: "string" }, description: "ISO 8601; empty when kept until deleted." },
  },
  timeouts: { create: "20m", update: "20m", delete: "10m" },
  importId: {
    shape: "the snapshot id the platform reports (e.g. GetSnapshot's `id`)",
    example: "snap-1700000002-1",
    unreported: ["includeWorkloads"],
  },
});

/** Validated inputs of a snapshot. */
export type SnapshotInputs = InputsOf<typeof snapshotKind.inputs, typeof snapshotKind.hidden>;

/** The snapshot schema. */
export const snapshotSchema = snapshotKind.schema;

/** The fields of a snapshot: a snapshot is immutable, so every change replaces it. */
export const SNAPSHOT_FIELDS = ["name", "vclusterName", "namespace", "description", "retentionHours", "labels", "includeWorkloads"] as const;

/** The policy table of `vcluster:Snapshot`. */
export const snapshotPolicies = snapshotKind.policies;

/** Default timeouts. */
export const SNAPSHOT_TIMEOUTS = snapshotKind.timeouts;
