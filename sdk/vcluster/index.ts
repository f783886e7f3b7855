/** Resources of vcluster, virtual Kubernetes clusters with suspend, resume, snapshots and restores. */
export { type Condition, type HelmRelease, type Timeouts, VCluster, type VClusterArgs } from "./vcluster";
export type { IngressConfig, NetworkConfig, PluginConfig, ResourceRequirements, ServiceAccountConfig, StorageConfig, SyncConfig } from "./vcluster";
export { Snapshot, type SnapshotArgs } from "./snapshot";
