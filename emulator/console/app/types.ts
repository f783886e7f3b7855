/** The console's state as `/_local/console/events` sends it (emulator/console/console-state.ts). */
export interface ConsoleState {
  views: Record<string, unknown>;
  faults: { faults: Fault[]; seed: number };
  operations: Record<string, string[]>;
  faultActions: string[];
  now: string;
}

export interface AuditEntry {
  seq: number;
  time: string;
  api: string;
  operation: string;
  target: string;
  requestId: string;
  code: string;
}

export interface Fault {
  id: string;
  api?: string;
  operation?: string;
  target?: string;
  count?: number;
  action: string;
  code?: string;
  message?: string;
  delayMs?: number;
  jitterMs?: number;
  probability?: number;
  fired?: number;
}

export interface CmasshCluster {
  name: string;
  status: string;
  statusMessage: string;
  k8sVersion: string;
  controlPlane: { instanceType: string; count: number };
  pools: { name: string; instanceType: string; count: number }[];
  operations: { kind: string; startedAt: string; endsAt: string; version?: string }[];
}

export interface CycleCloudCluster {
  name: string;
  nodearrays: { name: string; maxCount: number; activeCount: number }[];
}

export interface CycleCloudNode {
  cluster: string;
  name: string;
  nodearray: string;
  machineType: string;
  state: string;
  targetState: string;
  transition: { kind: string; endsAt: string } | null;
}

export interface SenlinAction {
  id: string;
  action: string;
  status: string;
  status_reason: string;
  inputs: Record<string, unknown>;
  data: { update?: { plan?: string[][] } };
  created_at: string | null;
  /** Seconds since the epoch once it started; null while it waits its turn (the plane's hasStarted). */
  start_time: number | null;
}

export interface SenlinNode {
  id: string;
  name: string;
  status: string;
  status_reason: string;
  profile_id: string;
  profile_name?: string;
  cluster_id: string;
  index: number;
}

export interface SenlinCluster {
  id: string;
  name: string;
  status: string;
  status_reason: string;
  desired_capacity: number;
  min_size: number;
  max_size: number;
  profile_id: string;
  profile_name: string;
  members: SenlinNode[];
  bindings: { policy_id: string; enabled: boolean }[];
  actions_in_flight: SenlinAction[];
}

export interface Named {
  id: string;
  name: string;
  type?: string;
}

export interface SenlinPolicy extends Named {
  /** The ids of the clusters it is attached to. */
  clusters: string[];
}

export interface SenlinReceiver extends Named {
  cluster_id: string | null;
  action: string | null;
}

export interface PelotonPool {
  id: string;
  path: string;
  resources: { kind: string; reservation: number; limit: number }[];
  jobs: number;
}

export interface PelotonJob {
  id: string;
  name: string;
  respoolId: string;
  state: string;
  version: string;
  pods: { instanceId: number; state: string; configVersion: number }[];
  workflow?: { type: string; state: string; todo: number[]; current: number[]; done: number[]; failed: number[] };
}

export interface VCluster {
  id: string;
  namespace: string;
  name: string;
  phase: string;
  spec: { kubernetes_version?: string };
  replicas: { desired: number };
  operationsInFlight: string[];
}

export interface VSnapshot {
  id: string;
  name: string;
  namespace: string;
  vclusterName: string;
  status: string;
}

export interface ApiServers {
  apiServers: { key: string; port: number; state: string }[];
}

/** The list a view holds under `key`, or none when the plane lacks the view. */
export function listOf<T>(state: ConsoleState | undefined, path: string, key: string): T[] {
  const view = state?.views[path] as Record<string, unknown> | undefined;
  const list = view?.[key];
  return Array.isArray(list) ? (list as T[]) : [];
}
