/**
 * CycleCloud cluster REST API shapes (contracts.md §2.3). Property names are the wire's: camelCase,
 * except `ip_addresses` in requests and the PascalCase attributes of node records.
 */

/** One set of a NodeCreationRequest: `count` nodes of one nodearray. */
export interface NodeCreationSet {
  count: number;
  nodearray: string;
  /** The bucket's VM size. @default the nodearray's first bucket */
  definition?: { machineType?: string };
  /** Node names, `%d` replaced by an index. @default "<nodearray>-%d" */
  nameFormat?: string;
  /** The first index tried. @default 1 */
  nameOffset?: number;
  /** Node-record attributes the new nodes start with. @default {} */
  nodeAttributes?: Record<string, unknown>;
  /** @default none */
  placementGroupId?: string;
}

/** POST `/clusters/{cluster}/nodes/create`. */
export interface NodeCreationRequest {
  /** Idempotency token: a repeated value is ignored and answered with 409. @default none */
  requestId?: string;
  sets: NodeCreationSet[];
}

/** What one set achieved. */
export interface NodeCreationSetResult {
  added: number;
  /** Why fewer nodes were added than asked. @default undefined */
  message?: string;
}

/** The 202 answer of a create or scale. */
export interface NodeCreationResult {
  operationId: string;
  sets: NodeCreationSetResult[];
}

/** Node selectors of a management call; the nodes matched are their union. */
export interface NodeManagementRequest {
  /** An expression such as `State === "Started"`. @default none */
  filter?: string;
  /** @default none */
  hostnames?: string[];
  /** @default none */
  ids?: string[];
  /** @default none */
  ip_addresses?: string[];
  /** @default none */
  names?: string[];
  /** @default none */
  requestId?: string;
}

/** One node's outcome in a management call. */
export interface NodeManagementNodeResult {
  id: string;
  name: string;
  status: "OK" | "Error";
  /** Present when `status` is `Error`. @default undefined */
  error?: string;
}

/** The 202 answer of a management call. */
export interface NodeManagementResult {
  operationId: string;
  nodes: NodeManagementNodeResult[];
}

/** The management calls of `POST /clusters/{cluster}/nodes/{action}`. */
export type ManagementAction = "deallocate" | "reimage" | "remove" | "restart" | "shutdown" | "start" | "terminate";

/** A node record: free-form PascalCase attributes; the ones the provider reads are typed. */
export interface NodeRecord {
  Name: string;
  NodeId: string;
  Template?: string;
  MachineType?: string;
  /** e.g. Acquiring, Preparing, Ready, Terminating, Failed. */
  State?: string;
  Status?: string;
  TargetState?: string;
  StatusMessage?: string;
  RequestId?: string;
  [attribute: string]: unknown;
}

/** OperationStatus: CycleCloud gives no progress here, only the action and when it started. */
export interface OperationStatus {
  action: string;
  startTime: string;
}

/** GET `/clusters/{cluster}/nodes`. */
export interface NodeList {
  nodes: NodeRecord[];
  /** Present when the list was asked for by operation or request id. @default undefined */
  operation?: OperationStatus;
}

/** A bucket of a nodearray in ClusterStatus (the fields the provider reads). */
export interface BucketStatus {
  bucketId?: string;
  definition: { machineType: string };
  maxCount?: number;
  activeCount?: number;
  availableCount: number;
  availableCoreCount?: number;
  quotaCount?: number;
  virtualMachine: { vcpuCount: number; gpuCount?: number; memory?: number };
  [field: string]: unknown;
}

/** A nodearray in ClusterStatus. */
export interface NodearrayStatus {
  name: string;
  maxCount?: number;
  maxCoreCount?: number;
  buckets: BucketStatus[];
  [field: string]: unknown;
}

/** GET `/clusters/{cluster}/status`. */
export interface ClusterStatus {
  state?: string;
  targetState?: string;
  maxCount?: number;
  maxCoreCount?: number;
  nodearrays: NodearrayStatus[];
  /** Only with `nodes=true`. @default undefined */
  nodes?: NodeRecord[];
}

/** Which nodes a node list asks for: an operation's, a request's, or every node of the cluster. */
export type NodeQuery = { operation: string } | { requestId: string } | Record<string, never>;
