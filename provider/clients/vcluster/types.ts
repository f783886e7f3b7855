/** Control plane resources as Kubernetes quantities, e.g. `"500m"`, `"1Gi"`. Empty fields are unset. */
export interface ResourceRequirements {
  /** @default "" */
  cpuRequest?: string;
  /** @default "" */
  cpuLimit?: string;
  /** @default "" */
  memoryRequest?: string;
  /** @default "" */
  memoryLimit?: string;
  /** @default "" */
  ephemeralStorageRequest?: string;
  /** @default "" */
  ephemeralStorageLimit?: string;
}

/** Custom DNS of the virtual cluster. */
export interface DnsConfig {
  /** @default [] */
  nameservers?: string[];
  /** @default [] */
  searches?: string[];
  /** @default [] */
  options?: string[];
}

/** Networking of the virtual cluster. */
export interface NetworkConfig {
  /** @default "" */
  podCidr?: string;
  /** @default "" */
  serviceCidr?: string;
  /** @default false */
  enableNetworkPolicies?: boolean;
  /** @default "" */
  dnsServiceIp?: string;
  /** @default none */
  dns?: DnsConfig;
}

/** etcd persistence. */
export interface StorageConfig {
  /** @default "" */
  defaultStorageClass?: string;
  /** @default false */
  enablePersistence?: boolean;
  /** e.g. `"5Gi"`. @default "" */
  persistenceSize?: string;
  /** @default "" */
  persistenceStorageClass?: string;
}

/** Which host resources are synced into the virtual cluster. */
export interface SyncConfig {
  /** @default false */
  syncNodes?: boolean;
  /** @default false */
  syncPersistentVolumes?: boolean;
  /** @default false */
  syncStorageClasses?: boolean;
  /** @default false */
  syncIngresses?: boolean;
  /** @default false */
  syncPriorityClasses?: boolean;
  /** @default false */
  syncNetworkPolicies?: boolean;
  /** @default false */
  syncPodDisruptionBudgets?: boolean;
  /** @default [] */
  customResources?: string[];
}

/** A vcluster plugin. */
export interface PluginConfig {
  name: string;
  /** @default "" */
  version?: string;
  /** YAML or JSON text. @default "" */
  config?: string;
  /** @default false */
  enabled?: boolean;
}

/** TLS of the API server ingress. */
export interface TlsConfig {
  /** @default false */
  enabled?: boolean;
  /** @default "" */
  secretName?: string;
  /** @default false */
  useCertManager?: boolean;
  /** @default "" */
  issuerName?: string;
}

/** Exposes the API server through an ingress; its hostname becomes the API server endpoint. */
export interface IngressConfig {
  /** @default false */
  enabled?: boolean;
  /** @default "" */
  ingressClass?: string;
  /** @default "" */
  hostname?: string;
  /** @default none */
  tls?: TlsConfig;
  /** @default {} */
  annotations?: Record<string, string>;
}

/** The service account of the virtual cluster's control plane. */
export interface ServiceAccountConfig {
  /** @default "" */
  name?: string;
  /** @default {} */
  annotations?: Record<string, string>;
  /** @default false */
  automountToken?: boolean;
}

/** A vcluster's desired state. Empty fields take the server's defaults. */
export interface VClusterSpec {
  /** e.g. `"1.28.0"`. @default "1.28.0" (server) */
  kubernetesVersion?: string;
  /** @default none */
  resources?: ResourceRequirements;
  /** Control plane replicas: 1 single, 3 highly available. @default 1 (server) */
  replicas?: number;
  /** @default none */
  network?: NetworkConfig;
  /** @default none */
  storage?: StorageConfig;
  /** @default false */
  enableHa?: boolean;
  /** `k3s`, `k8s`, `k0s` or `eks`. @default "k3s" (server) */
  distro?: string;
  /** Extra Helm values (YAML). @default "" */
  helmValues?: string;
  /** @default none */
  sync?: SyncConfig;
  /** @default [] */
  plugins?: PluginConfig[];
  /** @default none */
  ingress?: IngressConfig;
  /** @default none */
  serviceAccount?: ServiceAccountConfig;
  /** `full` or `lite`. @default "" */
  isolationMode?: string;
}

/** The names of the `Phase` enum values, without the `PHASE_` prefix. */
export type PhaseName =
  | "UNSPECIFIED"
  | "CREATING"
  | "RUNNING"
  | "SUSPENDED"
  | "SCALING"
  | "DELETING"
  | "ERROR"
  | "UPDATING"
  | "RESTORING"
  | "SNAPSHOTTING"
  | "RESUMING"
  | "PENDING";

/** The names of the `SnapshotStatus` enum values, without the `SNAPSHOT_STATUS_` prefix. */
export type SnapshotStatusName = "UNSPECIFIED" | "CREATING" | "READY" | "FAILED" | "DELETING";

/** A vcluster as the server reports it. Times are ISO 8601, empty when unset. */
export interface VClusterState {
  id: string;
  name: string;
  namespace: string;
  spec: VClusterSpec;
  labels: Record<string, string>;
  owner: string;
  project: string;
  phase: PhaseName;
  /** Human text about the phase; the failure's message in ERROR. */
  message: string;
  /** Why the vcluster is in ERROR, e.g. `CreateFailed`. */
  reason: string;
  readyReplicas: number;
  totalReplicas: number;
  /** Empty until the vcluster has been ready once. */
  apiServerEndpoint: string;
  /** Kubeconfig YAML, only when asked for and RUNNING; else empty. A secret. */
  kubeconfig: string;
  /** The generation the status reflects; behind the spec's while a change is under way. */
  observedGeneration: number;
  /** Where a watch resumes after this state; empty if the server does not say. */
  resourceVersion: string;
  lastSnapshotId: string;
  /** The server's conditions, e.g. `Ready=True`. */
  conditions: VClusterCondition[];
  /** The Helm release behind the vcluster. */
  helmRelease: HelmRelease;
  createTime: string;
  updateTime: string;
  readyTime: string;
  deleteTime: string;
}

/** One condition of a vcluster's status. */
export interface VClusterCondition {
  type: string;
  /** `True`, `False` or `Unknown`. */
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

/** A snapshot as the server reports it. */
export interface SnapshotState {
  id: string;
  name: string;
  vclusterId: string;
  vclusterName: string;
  namespace: string;
  status: SnapshotStatusName;
  sizeBytes: number;
  labels: Record<string, string>;
  description: string;
  storageUri: string;
  createTime: string;
  /** Empty when the snapshot is kept until deleted. */
  expireTime: string;
}

/** The type of a watch event. */
export type WatchEventTypeName = "ADDED" | "MODIFIED" | "DELETED" | "ERROR" | "UNSPECIFIED";

/** One change a watch reports. */
export interface WatchEvent {
  type: WatchEventTypeName;
  vcluster: VClusterState;
}
