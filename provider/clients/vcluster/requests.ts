import type { PhaseName, ResourceRequirements, SnapshotState, VClusterSpec, VClusterState } from "./types";

/** Names one vcluster. The server does not default the namespace on reads, so it is required. */
export interface VClusterRef {
  name: string;
  namespace: string;
}

/** What CreateVCluster takes. */
export interface CreateVClusterInput extends VClusterRef {
  /** @default the server's defaults */
  spec?: VClusterSpec;
  /** @default {} */
  labels?: Record<string, string>;
  /**
   * Idempotency key: the server answers a repeated create with the same id with its first answer.
   * @default a fresh `<requestIdPrefix>-<uuid>`, the same on every retry of this call
   */
  requestId?: string;
  /** Ask the server to answer only when the vcluster is ready. @default false */
  waitForReady?: boolean;
  /** How long the server may wait when `waitForReady`. @default 0 (server default) */
  timeoutSeconds?: number;
}

/** What CreateVCluster returns. */
export interface CreateVClusterResult {
  vcluster: VClusterState;
  operationId: string;
  /** The request id sent, for adopting the create after an interruption. */
  requestId: string;
}

/** What GetVCluster takes: a name and namespace, or an id. */
export interface GetVClusterInput {
  /** @default "" (then `id` is required) */
  name?: string;
  /** @default "" */
  namespace?: string;
  /** @default "" */
  id?: string;
  /** Put the kubeconfig in the state (only while RUNNING). @default false */
  includeKubeconfig?: boolean;
}

/** Filters of ListVClusters. */
export interface ListVClustersFilter {
  /** @default "" (every namespace) */
  namespace?: string;
  /** e.g. `env=prod,team=backend`. @default "" */
  labelSelector?: string;
  /** @default [] (every phase) */
  phases?: PhaseName[];
  /** @default "" */
  owner?: string;
  /** @default "" */
  project?: string;
  /** `name`, `create_time` or `-create_time`. @default "" (namespace, then name) */
  orderBy?: string;
}

/** One page of a listing. */
export interface Page<T> {
  items: T[];
  /** Empty on the last page. */
  nextPageToken: string;
  /** Matches over all pages. */
  totalCount: number;
}

/** Paging of a list call. */
export interface PageRequest {
  /** @default 0 (server default 20; above 100 also 20) */
  pageSize?: number;
  /** @default "" (first page) */
  pageToken?: string;
}

/** What UpdateVCluster takes. */
export interface UpdateVClusterInput extends VClusterRef {
  /** @default none */
  spec?: VClusterSpec;
  /**
   * Paths to change, e.g. `["spec.replicas", "labels"]`. Without a mask the server replaces the whole
   * spec (if sent) and merges labels.
   * @default []
   */
  updateMask?: string[];
  /** @default {} */
  labels?: Record<string, string>;
}

/** What DeleteVCluster takes. */
export interface DeleteVClusterInput extends VClusterRef {
  /** Delete even while another change is under way. @default false */
  force?: boolean;
  /** @default false */
  deleteSnapshots?: boolean;
  /** @default 0 */
  gracePeriodSeconds?: number;
}

/** What DeleteVCluster returns. */
export interface DeleteVClusterResult {
  /** Empty when `landedEarlier`. */
  operationId: string;
  /** ISO 8601; empty when `landedEarlier`. */
  deleteTime: string;
  /** A retry found the vcluster gone or already deleting: the lost first attempt had landed. */
  landedEarlier: boolean;
}

/** What ScaleVCluster takes. */
export interface ScaleVClusterInput extends VClusterRef {
  /** @default 0 (unchanged) */
  replicas?: number;
  /** Replaces the control plane resources when given. @default unchanged */
  resources?: ResourceRequirements;
}

/** What SuspendVCluster takes. */
export interface SuspendVClusterInput extends VClusterRef {
  /** @default false */
  drainWorkloads?: boolean;
  /** @default 0 */
  drainTimeoutSeconds?: number;
  /** @default false */
  createSnapshot?: boolean;
  /** @default `<name>-suspend-<unix seconds>` (server) */
  snapshotName?: string;
}

/** What SnapshotVCluster takes. */
export interface SnapshotVClusterInput extends VClusterRef {
  /** @default `<name>-<unix seconds>` (server) */
  snapshotName?: string;
  /** @default "" */
  description?: string;
  /** 0 keeps the snapshot until deleted. @default 0 */
  retentionHours?: number;
  /** @default {} */
  labels?: Record<string, string>;
  /** @default false */
  includeWorkloads?: boolean;
}

/** What RestoreVCluster takes. */
export interface RestoreVClusterInput extends VClusterRef {
  snapshotId: string;
  /** Restore into a new vcluster instead of in place. @default false */
  createNew?: boolean;
  /** Required when `createNew`. @default "" */
  newName?: string;
  /** @default the request's namespace */
  newNamespace?: string;
  /** @default false */
  restoreWorkloads?: boolean;
}

/** What GetVClusterKubeconfig takes. */
export interface KubeconfigInput extends VClusterRef {
  /** `default`, `exec` or `token`. @default "default" */
  format?: string;
  /** Lifetime of a `token` kubeconfig. @default 0 (server default 24) */
  validityHours?: number;
}

/** A kubeconfig and where it points. */
export interface KubeconfigResult {
  /** The kubeconfig YAML (decoded from the wire's base64). A secret. */
  kubeconfig: string;
  apiServerEndpoint: string;
  /** ISO 8601 for `token` kubeconfigs, else empty. */
  expiresAt: string;
}

/** A vcluster and the operation that changes it. */
export interface VClusterOperation {
  vcluster: VClusterState;
  operationId: string;
}

/** What SuspendVCluster returns. */
export interface SuspendResult extends VClusterOperation {
  /** The snapshot taken, when asked for. */
  snapshot?: SnapshotState;
}

/** Filters of ListSnapshots. */
export interface ListSnapshotsFilter {
  /** @default "" */
  vclusterName?: string;
  /** @default "" */
  namespace?: string;
  /** @default "" */
  labelSelector?: string;
}

/** What WatchVCluster takes. */
export interface WatchInput {
  /** @default "" (every vcluster in the namespace) */
  name?: string;
  /** @default "" (every namespace) */
  namespace?: string;
  /** @default "" */
  labelSelector?: string;
  /** Resume after this version (a state's `resourceVersion`). @default "" (start with the current state) */
  resourceVersion?: string;
  /** Ends the watch quietly when aborted. @default none */
  signal?: AbortSignal;
}
