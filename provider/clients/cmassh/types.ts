/** A Kubernetes label as cma-ssh carries it: a name/value pair. */
export interface KubernetesLabel {
  /** The label key. */
  name: string;
  /** The label value. */
  value: string;
}

/** The control plane machines of a cluster. cma-ssh creates one machine whatever `count` says. */
export interface ControlPlaneSpec {
  /** Machine type, e.g. `standard`. */
  instanceType: string;
  /** Requested machine count. */
  count: number;
  /** Labels for the machines. @default [] */
  labels?: KubernetesLabel[];
}

/** A worker node pool. */
export interface NodePoolSpec {
  /** The pool name, unique in its cluster. */
  name: string;
  /** Machine type. */
  instanceType: string;
  /** Number of machines. */
  count: number;
  /** Labels for the machines. @default [] */
  labels?: KubernetesLabel[];
}

/** What CreateCluster takes. */
export interface ClusterSpec {
  /** The cluster name; cma-ssh makes a namespace of it, so a DNS-1123 label. */
  name: string;
  /** Kubernetes version, e.g. `1.13.4`. */
  k8sVersion: string;
  /** The control plane. */
  controlPlaneNodes: ControlPlaneSpec;
  /** Worker pools. @default [] */
  workerNodePools?: NodePoolSpec[];
}

/** The names of cma-ssh's `ClusterStatus` enum values. */
export type ClusterStatusName =
  | "STATUS_UNSPECIFIED"
  | "PROVISIONING"
  | "RUNNING"
  | "RECONCILING"
  | "STOPPING"
  | "ERROR"
  | "DEGRADED";

/** A cluster as CreateCluster and GetClusterList report it. */
export interface ClusterSummary {
  /** The cluster name. */
  name: string;
  /** Lifecycle status. */
  status: ClusterStatusName;
  /** Free-text status detail; cma-ssh leaves it empty. */
  statusMessage: string;
}

/** A cluster as GetCluster reports it. */
export interface ClusterDetail extends ClusterSummary {
  /** Admin kubeconfig; empty until the cluster's secret exists. A secret. */
  kubeconfig: string;
}

/** What DeleteCluster returns. */
export interface DeleteClusterResult {
  /** The platform's status text, e.g. `Deleted`; empty when `notFoundOnRetry`. */
  status: string;
  /** True when a retry found the cluster gone: the earlier attempt landed before its reply was lost. */
  notFoundOnRetry: boolean;
}

/** A new size for one pool. */
export interface PoolScale {
  /** The pool name. */
  name: string;
  /** The new machine count. */
  count: number;
}

/** Build facts of the cma-ssh server. */
export interface VersionInformation {
  /** Release version; cma-ssh leaves it empty. */
  gitVersion: string;
  /** Commit built. */
  gitCommit: string;
  /** Tree state at build; cma-ssh leaves it empty. */
  gitTreeState: string;
  /** Build date. */
  buildDate: string;
  /** Go version used. */
  goVersion: string;
  /** Compiler. */
  compiler: string;
  /** OS/arch. */
  platform: string;
}
