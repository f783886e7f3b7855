import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";
import type { Timeouts } from "./cluster";

/** Arguments of {@link NodePool}. */
export interface NodePoolArgs {
  /** The cluster the pool belongs to, usually `cluster.name`. Changing it replaces the pool. */
  clusterName: pulumi.Input<string>;
  /**
   * The pool name, a DNS-1123 label unique in its cluster. Changing it replaces the pool.
   * @default the resource name plus a short hash, new for every replacement so that the new pool is
   *   added before the old one is deleted
   */
  name?: pulumi.Input<string>;
  /** Machine type: `"standard"` or `"gpu"`. Changing it replaces the pool. */
  instanceType: pulumi.Input<string>;
  /** Number of machines, 0 to 1000. Changing it scales the pool in place (ScaleNodePool). */
  count: pulumi.Input<number>;
  /** Kubernetes labels for the machines. Changing them replaces the pool. @default {} */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Time limits of add, scale and delete. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A worker node pool of a cma-ssh cluster. A new `count` is a ScaleNodePool in place; a new
 * instance type, labels, name or cluster replaces the pool. Every operation waits until the cluster
 * is RUNNING again.
 */
export class NodePool extends DynamicResource {
  /** The pool name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** The cluster the pool belongs to. */
  declare readonly clusterName: pulumi.Output<string>;
  /** Number of machines. */
  declare readonly count: pulumi.Output<number>;
  /** The status of the pool's cluster when the last operation ended. */
  declare readonly clusterStatus: pulumi.Output<string>;

  constructor(name: string, args: NodePoolArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "cmassh:NodePool",
      name,
      {
        clusterName: args.clusterName,
        name: args.name,
        instanceType: args.instanceType,
        count: args.count,
        labels: args.labels,
        timeouts: args.timeouts,
        ...identityInputs(name, "cmassh:NodePool", opts),
        clusterStatus: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
