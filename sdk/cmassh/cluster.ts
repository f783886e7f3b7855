import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";

/** How long each kind of operation may take, e.g. `"30m"`, `"1h30m"`, `"90s"`. */
export interface Timeouts {
  /** @default "30m" for clusters, "20m" for node pools */
  create?: string;
  /** @default "45m" for clusters, "20m" for node pools */
  update?: string;
  /** @default "30m" for clusters, "20m" for node pools */
  delete?: string;
}

/** The control plane machines of a cluster. Changing any of it replaces the cluster. */
export interface ControlPlaneArgs {
  /** Machine type: `"standard"` or `"gpu"`. */
  instanceType: pulumi.Input<string>;
  /** Number of control plane machines, 1 to 9. */
  count: pulumi.Input<number>;
  /** Kubernetes labels for the machines. `clusterform.dev/owner` is reserved. @default {} */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** Arguments of {@link Cluster}. */
export interface ClusterArgs {
  /**
   * The cluster name, a DNS-1123 label (cma-ssh makes a namespace of it). Changing it replaces the
   * cluster, deleting the old one first.
   * @default the resource name plus a short hash, stable for this stack (so an interrupted `up` adopts
   *   what it created) and new for every replacement (so the new cluster can come up first)
   */
  name?: pulumi.Input<string>;
  /** Kubernetes version `MAJOR.MINOR.PATCH`. Raising it upgrades in place; lowering it is refused. */
  kubernetesVersion: pulumi.Input<string>;
  /** The control plane. Changing it replaces the cluster. */
  controlPlane: pulumi.Input<ControlPlaneArgs>;
  /** Time limits of create, upgrade and delete. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A Kubernetes cluster managed by cma-ssh. Create waits until it is RUNNING; a new
 * `kubernetesVersion` is an in-place upgrade (GetUpgradeClusterInformation, UpgradeCluster, wait);
 * delete waits until the platform no longer knows the cluster.
 */
export class Cluster extends DynamicResource {
  /** The cluster name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** PROVISIONING, RUNNING, RECONCILING, STOPPING, ERROR or DEGRADED. */
  declare readonly status: pulumi.Output<string>;
  /** The platform's explanation of the status, if any. */
  declare readonly statusMessage: pulumi.Output<string>;
  /** The Kubernetes version the provider last set. */
  declare readonly kubernetesVersion: pulumi.Output<string>;
  /** Admin kubeconfig of the cluster. Secret. */
  declare readonly kubeconfig: pulumi.Output<string>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "cmassh:Cluster",
      name,
      {
        name: args.name,
        kubernetesVersion: args.kubernetesVersion,
        controlPlane: args.controlPlane,
        timeouts: args.timeouts,
        ...identityInputs(name, "cmassh:Cluster", opts),
        status: undefined,
        statusMessage: undefined,
        kubeconfig: undefined,
      },
      withReplaceDefaults(opts, { additionalSecretOutputs: ["kubeconfig"] }),
    );
  }
}
