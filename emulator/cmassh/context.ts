import type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Cluster, ClusterStatus, type MachineSpec } from "../../proto/gen/cmassh/api_pb";
import type { CallContext } from "../calls";
import type { Clock } from "../clock";
import type { KubernetesHost } from "../kubernetes/host";
import { heldForApiServer } from "./kubernetes";
import { type DerivedStatus, deriveStatus, settleDueOperations, startOperation } from "./lifecycle";
import type { ClusterRecord, CmasshStore, OperationKind, OperationRecord, PoolRecord } from "./store";
import { alreadyExists, assertDns1123Label, assertNodeCount, notFound } from "./validation";

/** What the cma-ssh handlers share. */
export interface CmasshEnv {
  store: CmasshStore;
  clock: Clock;
  /** Multiplies every operation duration. */
  timeScale: number;
  /** Kubernetes versions offered for upgrades, ascending. */
  versions: readonly string[];
  /** When this server started, ISO 8601; reported as the build date. */
  startedAt: string;
  /** The API servers behind the clusters (`--kubernetes`); absent without it. */
  kubernetes?: KubernetesHost;
}

/** Applies the operations that have ended, except creates still waiting for their API server. */
export function settle(env: CmasshEnv): void {
  settleDueOperations(env.store, env.clock.now(), (op) => heldForApiServer(env.kubernetes, op));
}

type Methods = (typeof Cluster)["method"];

/** One implementation per RPC, shared by gRPC and the REST gateway. Handlers are synchronous: SQLite is. */
export type CmasshHandlers = {
  [K in keyof Methods]: (
    request: MessageShape<Methods[K]["input"]>,
    ctx: CallContext,
  ) => MessageInitShape<Methods[K]["output"]>;
};

/** A settled cluster with its derived status. */
export interface ClusterView extends DerivedStatus {
  cluster: ClusterRecord;
  inFlight: OperationRecord[];
}

/** Applies ended operations, then reads the cluster named `name`; NOT_FOUND if absent. */
export function loadCluster(env: CmasshEnv, name: string): ClusterView {
  settle(env);
  const cluster = env.store.findCluster(name);
  if (!cluster) throw notFound("cluster", name);
  return viewCluster(env, cluster);
}

/** The derived status of a settled cluster. */
export function viewCluster(env: CmasshEnv, cluster: ClusterRecord): ClusterView {
  const inFlight = env.store.inFlightOperations(cluster.id);
  return { cluster, inFlight, ...deriveStatus(cluster, inFlight) };
}

/** Like {@link loadCluster}, and FAILED_PRECONDITION while the cluster is being deleted. */
export function loadMutableCluster(env: CmasshEnv, name: string): ClusterView {
  const view = loadCluster(env, name);
  if (view.status === ClusterStatus.STOPPING) {
    throw new ConnectError(`cluster "${name}" is being deleted`, Code.FailedPrecondition);
  }
  return view;
}

/** Starts an operation of `kind` on a cluster, failing it if a "fail-operation" fault matches the call. */
export function beginOperation(
  env: CmasshEnv,
  ctx: CallContext,
  clusterId: number,
  kind: OperationKind,
  payload?: OperationRecord["payload"],
): void {
  const failureMessage = ctx.takeOperationFailure();
  startOperation({ store: env.store, nowMs: env.clock.now(), timeScale: env.timeScale, clusterId, kind, failureMessage, payload });
}

/** Converts and validates requested worker pools: DNS-1123 names, unique, non-negative counts. */
export function toPoolRecords(specs: readonly MachineSpec[], existing: readonly PoolRecord[] = []): PoolRecord[] {
  const names = new Set(existing.map((p) => p.name));
  return specs.map((spec) => {
    assertDns1123Label("node pool name", spec.name);
    assertNodeCount(`node pool "${spec.name}"`, spec.count);
    if (names.has(spec.name)) throw alreadyExists("node pool", spec.name);
    names.add(spec.name);
    return {
      name: spec.name,
      instanceType: spec.instanceType,
      count: spec.count,
      labels: spec.labels.map(({ name, value }) => ({ name, value })),
    };
  });
}
