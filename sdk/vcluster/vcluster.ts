import type * as pulumi from "@pulumi/pulumi";
import type {
  IngressConfig,
  NetworkConfig,
  PluginConfig,
  ResourceRequirements,
  ServiceAccountConfig,
  StorageConfig,
  SyncConfig,
} from "../../provider/clients/vcluster/types";
import { identityInputs, withReplaceDefaults } from "../internal/identity";
import { DynamicResource } from "../internal/resource";

export type { IngressConfig, NetworkConfig, PluginConfig, ResourceRequirements, ServiceAccountConfig, StorageConfig, SyncConfig };

/** How long each kind of operation may take, e.g. `"20m"`, `"90s"`. */
export interface Timeouts {
  /** Create (or restore), including the wait for RUNNING. @default "20m" */
  create?: string;
  /** All the calls of one update together, each with its wait. @default "20m" */
  update?: string;
  /** @default "15m" for vclusters, "10m" for snapshots */
  delete?: string;
}

/**
 * Arguments of {@link VCluster}. The change policy of every field (in place by which call, or
 * replace) is in the README's vcluster section and `VCLUSTER_FIELDS` in the provider.
 */
export interface VClusterArgs {
  /**
   * The vcluster name, a DNS-1123 label. Changing it replaces the vcluster.
   * @default the resource name plus a short hash, stable for this stack
   */
  name?: pulumi.Input<string>;
  /** The host namespace, a DNS-1123 label (required: servers default it inconsistently). Changing it replaces. */
  namespace: pulumi.Input<string>;
  /** Kubernetes version `MAJOR.MINOR.PATCH`. In place: UpdateVCluster. @default "1.28.0" (server) */
  kubernetesVersion?: pulumi.Input<string>;
  /** `k3s`, `k8s`, `k0s` or `eks`. Changing it replaces. @default "k3s" (server) */
  distro?: pulumi.Input<string>;
  /** Control plane replicas, 1 to 9. In place: ScaleVCluster. @default 1 */
  replicas?: pulumi.Input<number>;
  /** High availability. In place: UpdateVCluster. @default false */
  enableHa?: pulumi.Input<boolean>;
  /** Control plane requests and limits (quantities such as `"500m"`, `"1Gi"`). In place: ScaleVCluster. @default none */
  resources?: pulumi.Input<ResourceRequirements>;
  /** CIDRs (`"10.42.0.0/16"`) and DNS. Changing it replaces. @default none */
  network?: pulumi.Input<NetworkConfig>;
  /** etcd persistence. Changing it replaces. @default none */
  storage?: pulumi.Input<StorageConfig>;
  /** Host resources synced into the vcluster. In place: UpdateVCluster. @default none */
  sync?: pulumi.Input<SyncConfig>;
  /** Plugins, unique by name. In place: UpdateVCluster. @default [] */
  plugins?: pulumi.Input<pulumi.Input<PluginConfig>[]>;
  /** API server ingress. In place: UpdateVCluster. @default none */
  ingress?: pulumi.Input<IngressConfig>;
  /** The control plane's service account. In place: UpdateVCluster. @default none */
  serviceAccount?: pulumi.Input<ServiceAccountConfig>;
  /** `full` or `lite`. Changing it replaces. @default "" (server) */
  isolationMode?: pulumi.Input<string>;
  /** Extra Helm values (YAML). In place: UpdateVCluster. @default "" */
  helmValues?: pulumi.Input<string>;
  /** Kubernetes labels; `owner`, `project` and `clusterform.dev/owner` are reserved. In place: UpdateVCluster. @default {} */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** The vcluster's owner (a label value; sent as the label `owner`). Changing it replaces. @default none */
  owner?: pulumi.Input<string>;
  /** The vcluster's project (a label value; sent as the label `project`). Changing it replaces. @default none */
  project?: pulumi.Input<string>;
  /** Paused: SuspendVCluster when set, ResumeVCluster when cleared. @default false */
  suspended?: pulumi.Input<boolean>;
  /** A snapshot id to create the vcluster from (RestoreVCluster into a new vcluster). Used at creation only. @default none */
  restoreFrom?: pulumi.Input<string>;
  /** Time limits. @default see {@link Timeouts} */
  timeouts?: pulumi.Input<Timeouts>;
}

/** One condition of a vcluster's status. */
export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** The Helm release a vcluster runs as. */
export interface HelmRelease {
  name: string;
  chartVersion: string;
  appVersion: string;
  status: string;
  revision: number;
}

/**
 * A virtual Kubernetes cluster. Create waits for RUNNING; changes run in place in the order the
 * phase rules allow (resume, update, scale, suspend), each waiting for the vcluster to settle, with
 * WatchVCluster (falling back to polling when the stream breaks).
 */
export class VCluster extends DynamicResource {
  /** The name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** The host namespace. */
  declare readonly namespace: pulumi.Output<string>;
  /** The platform's id, e.g. `vc-1700000000-1`. */
  declare readonly vclusterId: pulumi.Output<string>;
  /** RUNNING or SUSPENDED after a successful up; CREATING, SCALING, ... while changing. */
  declare readonly phase: pulumi.Output<string>;
  /** The API server URL, e.g. `https://dev.team-a.svc:443`. */
  declare readonly apiServerEndpoint: pulumi.Output<string>;
  /** Admin kubeconfig (YAML). Secret. */
  declare readonly kubeconfig: pulumi.Output<string>;
  /** Ready control plane replicas (0 while suspended). */
  declare readonly readyReplicas: pulumi.Output<number>;
  /** The Helm release behind the vcluster. */
  declare readonly helmRelease: pulumi.Output<HelmRelease>;
  /** The status conditions, e.g. Ready=True. */
  declare readonly conditions: pulumi.Output<Condition[]>;

  constructor(name: string, args: VClusterArgs, opts?: pulumi.CustomResourceOptions) {
    const { owner, ...rest } = args;
    super(
      "vcluster:VCluster",
      name,
      {
        // Every output must be a registered property: `name` and `namespace` even when not given.
        name: undefined,
        ...rest,
        vclusterOwner: owner,
        ...identityInputs(name, "vcluster:VCluster", opts),
        vclusterId: undefined,
        phase: undefined,
        apiServerEndpoint: undefined,
        kubeconfig: undefined,
        readyReplicas: undefined,
        helmRelease: undefined,
        conditions: undefined,
      },
      withReplaceDefaults(opts, { additionalSecretOutputs: ["kubeconfig"] }),
    );
  }
}
