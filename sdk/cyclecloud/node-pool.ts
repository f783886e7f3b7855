import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";

/** How long each kind of operation may take, e.g. `"30m"`, `"1h30m"`, `"90s"`. */
export interface Timeouts {
  /** Adding the first nodes and waiting until every one is Ready. @default "20m" */
  create?: string;
  /** Adding or removing nodes and waiting until they are Ready or gone. @default "20m" */
  update?: string;
  /** Removing every node and waiting until they are gone. @default "20m" */
  delete?: string;
}

/** Arguments of {@link NodePool}. Give exactly one of `count` and `coreCount`. */
export interface NodePoolArgs {
  /** The CycleCloud cluster (defined in CycleCloud; Clusterform does not create clusters). Changing it replaces the pool. */
  clusterName: pulumi.Input<string>;
  /** The nodearray of the cluster the nodes come from. Changing it replaces the pool. */
  nodearray: pulumi.Input<string>;
  /**
   * How many nodes, 0 to 1000. Raising it adds the difference (nodes/create); lowering it removes
   * exactly the surplus, nodes not Ready first, then the newest (nodes/remove). In place.
   * @default none: give `count` or `coreCount`
   */
  count?: pulumi.Input<number>;
  /**
   * How many cores, 0 to 100000: the pool holds enough nodes of the bucket's VM size to give at
   * least this many vCPUs. Changes like `count`, in place.
   * @default none: give `count` or `coreCount`
   */
  coreCount?: pulumi.Input<number>;
  /** The VM size (the nodearray's bucket), e.g. `"Standard_F2s_v2"`. Changing it replaces the pool. @default the nodearray's first bucket */
  machineType?: pulumi.Input<string>;
  /** Node names with one `%d` for the index, e.g. `"compute-%d"`. Changing it replaces the pool. @default "<nodearray>-%d" (CycleCloud's) */
  nameFormat?: pulumi.Input<string>;
  /** The first index tried in `nameFormat`. Changing it replaces the pool. @default 1 */
  nameOffset?: pulumi.Input<number>;
  /**
   * Node-record attributes the nodes start with, e.g. `{ KeepAlive: true }`. Attributes CycleCloud
   * sets itself (Name, State, MachineType, ...) are refused. Changing them replaces the pool.
   * @default {}
   */
  nodeAttributes?: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  /** The placement group the nodes join. Changing it replaces the pool. @default none */
  placementGroupId?: pulumi.Input<string>;
  /** Time limits of create, resize and delete. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A set of nodes of one CycleCloud nodearray, sized by `count` or `coreCount`. Create asks once
 * (nodes/create with a request id derived from the resource) and waits until every node is Ready;
 * a new size adds the difference or removes exactly the surplus; delete removes every node and
 * waits until they are gone. A node failed or preempted outside Pulumi shows after `pulumi
 * refresh` as a lower `readyCount` and `count`, and the next `up` replaces it.
 */
export class NodePool extends DynamicResource {
  /** The pool's nodes' ids, oldest first. */
  declare readonly nodeIds: pulumi.Output<string[]>;
  /** The pool's nodes' names, oldest first. */
  declare readonly nodeNames: pulumi.Output<string[]>;
  /** How many of the pool's nodes were Ready when last seen. */
  declare readonly readyCount: pulumi.Output<number>;
  /** The id of the last CycleCloud operation (or, after adopting an interrupted run's request, its request id). */
  declare readonly lastOperationId: pulumi.Output<string>;
  /** vCPUs per node of the pool's VM size. */
  declare readonly coresPerNode: pulumi.Output<number>;
  /** The cluster. */
  declare readonly clusterName: pulumi.Output<string>;
  /** The nodearray. */
  declare readonly nodearray: pulumi.Output<string>;
  /** The size asked for, in nodes (when `count` is given). */
  declare readonly count: pulumi.Output<number | undefined>;
  /** The size asked for, in cores (when `coreCount` is given). */
  declare readonly coreCount: pulumi.Output<number | undefined>;

  constructor(name: string, args: NodePoolArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "cyclecloud:NodePool",
      name,
      {
        clusterName: args.clusterName,
        nodearray: args.nodearray,
        count: args.count,
        coreCount: args.coreCount,
        machineType: args.machineType,
        nameFormat: args.nameFormat,
        nameOffset: args.nameOffset,
        nodeAttributes: args.nodeAttributes,
        placementGroupId: args.placementGroupId,
        timeouts: args.timeouts,
        ...identityInputs(name, "cyclecloud:NodePool", opts),
        nodeIds: undefined,
        nodeNames: undefined,
        readyCount: undefined,
        lastOperationId: undefined,
        coresPerNode: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
