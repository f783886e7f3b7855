import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";

/** How long each kind of operation may take, e.g. `"30m"`, `"1h30m"`, `"90s"`. */
export interface Timeouts {
  /** Create, policy attachments included. @default "30m" */
  create?: string;
  /** One update: the PATCH, the resize and the policy actions together. @default "30m" */
  update?: string;
  /** Policy detachments and the delete, until the cluster is gone. @default "30m" */
  delete?: string;
}

/** A policy attached to the cluster. */
export interface PolicyBindingArgs {
  /** The policy's name, short id or UUID. */
  policy: pulumi.Input<string>;
  /** Whether the policy is enforced. A change is one `policy_update` action. @default true */
  enabled?: pulumi.Input<boolean>;
}

/** Arguments of {@link Cluster}. Senlin changes every one of them in place. */
export interface ClusterArgs {
  /**
   * The cluster name: an ASCII letter, then letters, digits, `_`, `.` or `-` (at most 254). Senlin
   * names need not be unique; Clusterform knows its clusters by a metadata marker. A change is a PATCH.
   * @default the resource name plus a short hash, stable for this resource
   */
  name?: pulumi.Input<string>;
  /** The profile nodes are built from (name, short id or UUID). A change is a PATCH: Senlin's rolling update of the nodes. */
  profile: pulumi.Input<string>;
  /** Fewest nodes, 0 to 1000. A change is one `resize` action. @default 0 */
  minSize?: pulumi.Input<number>;
  /** Most nodes, -1 (unbounded) to 1000. A change is one `resize` action. @default -1 */
  maxSize?: pulumi.Input<number>;
  /** Nodes wanted, between `minSize` and `maxSize`. A change is one `resize` action (EXACT_CAPACITY). @default minSize */
  desiredCapacity?: pulumi.Input<number>;
  /** Default timeout of the cluster's actions, seconds. A change is a PATCH. @default the server's default_action_timeout (3600) */
  timeout?: pulumi.Input<number>;
  /** Free-form metadata; the key `clusterform.dev/owner` is reserved. A change is a PATCH. @default {} */
  metadata?: pulumi.Input<Record<string, unknown>>;
  /** Cluster configuration, e.g. `{ "node.name.format": "web-$3I" }`. A change is a PATCH. @default {} */
  config?: pulumi.Input<Record<string, unknown>>;
  /** Policies to attach, as a set (order does not matter): attach new, detach removed, update a changed `enabled`. @default [] */
  policies?: pulumi.Input<pulumi.Input<PolicyBindingArgs>[]>;
  /**
   * When the profile changes, change only the cluster's profile, not its existing nodes
   * (`profile_only`, microversion 1.6). Changing this alone does nothing. @default false
   */
  profileOnly?: pulumi.Input<boolean>;
  /** Time limits of create, update and delete. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * An OpenStack Senlin cluster: a set of identical nodes kept at a size. Create waits for the
 * create action and attaches the policies; size and bounds change with one `resize`; name,
 * profile, timeout, metadata and config with one PATCH; delete detaches the policies and waits
 * until the cluster is gone. Credentials come from `OS_*`, `clouds.yaml` or stack config.
 */
export class Cluster extends DynamicResource {
  /** The cluster name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** ACTIVE, WARNING, ERROR, ... as Senlin reports it. */
  declare readonly status: pulumi.Output<string>;
  /** Senlin's explanation of the status. */
  declare readonly statusReason: pulumi.Output<string>;
  /** UUIDs of the member nodes, sorted. */
  declare readonly nodeIds: pulumi.Output<string[]>;
  /** The desired capacity Senlin reports. */
  declare readonly desiredCapacity: pulumi.Output<number>;
  /** Name of the cluster's profile. */
  declare readonly profileName: pulumi.Output<string>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "senlin:Cluster",
      name,
      {
        name: args.name,
        profile: args.profile,
        minSize: args.minSize,
        maxSize: args.maxSize,
        desiredCapacity: args.desiredCapacity,
        timeout: args.timeout,
        metadata: args.metadata,
        config: args.config,
        policies: args.policies,
        profileOnly: args.profileOnly,
        timeouts: args.timeouts,
        ...identityInputs(name, "senlin:Cluster", opts),
        status: undefined,
        statusReason: undefined,
        nodeIds: undefined,
        profileName: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
