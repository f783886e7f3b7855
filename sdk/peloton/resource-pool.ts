import type * as pulumi from "@pulumi/pulumi";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";

/** How long each operation may take, as durations such as `"90s"`, `"20m"`, `"1h30m"`. */
export interface Timeouts {
  /** @default "5m" for pools, "30m" for jobs */
  create?: string;
  /** @default "5m" for pools, "1h" for jobs */
  update?: string;
  /** @default "10m" for pools, "30m" for jobs */
  delete?: string;
}

/** One resource kind a pool reserves and limits. */
export interface ResourceArgs {
  /** `"cpu"`, `"memory"` (MB), `"disk"` (MB) or `"gpu"`; each kind at most once. */
  kind: pulumi.Input<string>;
  /** Guaranteed amount, >= 0. */
  reservation: pulumi.Input<number>;
  /** Most the pool's pods may use together, >= `reservation`. Pods beyond it stay PENDING. */
  limit: pulumi.Input<number>;
  /** Weight when sharing spare capacity with sibling pools. @default 1 */
  share?: pulumi.Input<number>;
  /** `"ELASTIC"` (lends unused reservation) or `"STATIC"`. @default "ELASTIC" */
  type?: pulumi.Input<string>;
}

/** Arguments of {@link ResourcePool}. Every field but `parent` changes in place with one UpdateResourcePool. */
export interface ResourcePoolArgs {
  /** The pool's name, unique among its siblings, without `/`. @default the resource name plus a short hash */
  name?: pulumi.Input<string>;
  /**
   * The parent: `"root"`, a pool id (e.g. another pool's `id`) or an absolute path such as
   * `"/infrastructure"`. Changing it replaces the pool. @default "root"
   */
  parent?: pulumi.Input<string>;
  /** Reservations and limits per resource kind. @default [] (no limits) */
  resources?: pulumi.Input<pulumi.Input<ResourceArgs>[]>;
  /** Scheduling policy; Peloton knows only `"PRIORITY_FIFO"`. @default "PRIORITY_FIFO" */
  policy?: pulumi.Input<string>;
  /** Most of the pool controllers may use, in percent. @default no limit */
  controllerLimit?: pulumi.Input<{ maxPercent: pulumi.Input<number> }>;
  /** Most of the pool revocable (slack) pods may use, in percent. @default no limit */
  slackLimit?: pulumi.Input<{ maxPercent: pulumi.Input<number> }>;
  /** The team owning the pool. @default "" */
  owningTeam?: pulumi.Input<string>;
  /** LDAP groups allowed to use the pool. @default [] */
  ldapGroups?: pulumi.Input<pulumi.Input<string>[]>;
  /** Free text. @default "" */
  description?: pulumi.Input<string>;
  /** Time limits. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A Peloton resource pool (v1alpha ResourcePoolService). Its id is derived from the stack, the
 * resource and the parent, so an interrupted create is adopted. Deleting a pool that still has
 * child pools or jobs fails and names them.
 */
export class ResourcePool extends DynamicResource {
  /** The pool id (a UUID): give it to `StatelessJob.respoolId` or as another pool's `parent`. */
  declare readonly respoolId: pulumi.Output<string>;
  /** The pool's name. */
  declare readonly name: pulumi.Output<string>;
  /** The absolute path, e.g. `/infrastructure/compute`. */
  declare readonly path: pulumi.Output<string>;
  /** The parent's id. */
  declare readonly parentId: pulumi.Output<string>;
  /** What the pool's pods use per kind, as last read. */
  declare readonly usages: pulumi.Output<{ kind: string; allocation: number; slack: number }[]>;

  constructor(name: string, args: ResourcePoolArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      "peloton:ResourcePool",
      name,
      {
        name: args.name,
        parent: args.parent,
        resources: args.resources,
        policy: args.policy,
        controllerLimit: args.controllerLimit,
        slackLimit: args.slackLimit,
        owningTeam: args.owningTeam,
        ldapGroups: args.ldapGroups,
        description: args.description,
        timeouts: args.timeouts,
        ...identityInputs(name, "peloton:ResourcePool", opts),
        respoolId: undefined,
        path: undefined,
        parentId: undefined,
        usages: undefined,
      },
      withReplaceDefaults(opts),
    );
  }
}
