import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";
import type { Timeouts } from "./vcluster";

/** Arguments of {@link Snapshot}. A snapshot is immutable: changing any field replaces it. */
export interface SnapshotArgs {
  /** The vcluster to snapshot; it must be RUNNING. */
  vclusterName: pulumi.Input<string>;
  /** The vcluster's namespace; the snapshot lives there too. */
  namespace: pulumi.Input<string>;
  /** The snapshot name, a DNS-1123 label. @default the resource name plus a short hash */
  name?: pulumi.Input<string>;
  /** @default "" */
  description?: pulumi.Input<string>;
  /** Hours until the platform deletes the snapshot, 0 to 8760; 0 keeps it until deleted. @default 0 */
  retentionHours?: pulumi.Input<number>;
  /** Kubernetes labels; `clusterform.dev/owner`, `owner` and `project` are reserved. @default {} */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Include workloads, not only the control plane state. @default false */
  includeWorkloads?: pulumi.Input<boolean>;
  /** Time limits. @default create "20m", delete "10m" */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A snapshot of a vcluster (SnapshotVCluster). Create waits for READY; an expired snapshot reads as
 * gone, so a refresh drops it and the next up takes a new one. Use its `snapshotId` as a
 * VCluster's `restoreFrom`.
 */
export class Snapshot extends DynamicResource {
  /** The snapshot name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** The platform's id, e.g. `snap-1700000000-3`: what `restoreFrom` takes. */
  declare readonly snapshotId: pulumi.Output<string>;
  /** READY after a successful up. */
  declare readonly status: pulumi.Output<string>;
  /** The snapshotted vcluster's id. */
  declare readonly vclusterId: pulumi.Output<string>;
  declare readonly sizeBytes: pulumi.Output<number>;
  declare readonly storageUri: pulumi.Output<string>;
  /** ISO 8601; empty when kept until deleted. */
  declare readonly expireTime: pulumi.Output<string>;

  constructor(name: string, args: SnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "vcluster:Snapshot",
      name,
      {
        name: undefined,
        ...args,
        ...identityInputs(name, "vcluster:Snapshot", opts),
        snapshotId: undefined,
        status: undefined,
        vclusterId: undefined,
        sizeBytes: undefined,
        storageUri: undefined,
        expireTime: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
