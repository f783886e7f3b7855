import type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { create, equals } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  CreateVClusterResponseSchema,
  Phase,
  type VClusterService,
  VClusterSpecSchema,
  WatchEventType,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { CallContext } from "../calls";
import {
  assertPhase,
  keyOf,
  loadCluster,
  messageOf,
  mutate,
  newId,
  requireName,
  settleDue,
  startOperation,
  type VclusterEnv,
  viewOf,
} from "./context";
import { applySpecMask, parseUpdateMask } from "./field-mask";
import { generateToken } from "./kubeconfig";
import { parseLabelSelector } from "./label-selector";
import { paginate } from "./page-token";
import { alreadyExists, assertDnsLabel, assertLabels, failedPrecondition, invalidArgument, normalizeSpec, notFound } from "./validation";

type Methods = (typeof VClusterService)["method"];
type UnaryName = Exclude<keyof Methods, "watchVCluster">;

/** One synchronous implementation per unary RPC (SQLite is synchronous). */
export type VclusterHandlers = {
  [K in UnaryName]: (request: MessageShape<Methods[K]["input"]>, ctx: CallContext) => MessageInitShape<Methods[K]["output"]>;
};

type Handler<K extends UnaryName> = (env: VclusterEnv, ...args: Parameters<VclusterHandlers[K]>) => ReturnType<VclusterHandlers[K]>;

/** The namespace the reference server gives a create that names none. */
export const DEFAULT_NAMESPACE = "default";

/** The labels owner and project are read from: CreateVClusterRequest has no fields for them. */
const OWNER_LABEL = "owner";
const PROJECT_LABEL = "project";

const createVCluster: Handler<"createVCluster"> = (env, request, ctx) => {
  const namespace = request.namespace || DEFAULT_NAMESPACE;
  settleDue(env);
  if (request.requestId) {
    const earlier = env.journal.findRequest(request.requestId, env.clock.now());
    if (earlier && (earlier.namespace !== namespace || earlier.name !== request.name)) {
      throw invalidArgument("request_id", request.requestId, `was already used to create vcluster ${JSON.stringify(keyOf(earlier.namespace, earlier.name))}; use a new id for another vcluster`);
    }
    if (earlier) return earlier.response;
  }
  assertDnsLabel("name", request.name);
  assertDnsLabel("namespace", namespace);
  assertLabels("labels", request.labels);
  const spec = normalizeSpec(request.spec);
  if (env.clusters.find(namespace, request.name)) throw alreadyExists("vcluster", keyOf(namespace, request.name));
  const failureMessage = ctx.takeOperationFailure();
  return mutate(env, ({ emit }) => {
    const nowMs = env.clock.now();
    const id = newId(env, "vc");
    env.clusters.insert({
      id, name: request.name, namespace, spec, labels: { ...request.labels },
      owner: request.labels[OWNER_LABEL] ?? "", project: request.labels[PROJECT_LABEL] ?? "", token: generateToken(),
      createMs: nowMs, updateMs: nowMs, readyMs: 0, deleteMs: 0, basePhase: Phase.CREATING, reason: "", message: "",
      generation: 1, lastSnapshotId: "", resourceVersion: 0,
    });
    const operationId = startOperation(env, id, "create", { failureMessage });
    emit(WatchEventType.ADDED, id);
    const response = create(CreateVClusterResponseSchema, { vcluster: messageOf(env, env.clusters.findById(id)!), operationId });
    if (request.requestId) env.journal.rememberRequest(request.requestId, namespace, request.name, response, nowMs);
    return response;
  });
};

const getVCluster: Handler<"getVCluster"> = (env, request) => {
  if (request.id) {
    settleDue(env);
    const cluster = env.clusters.findById(request.id);
    const matches = cluster && (!request.name || cluster.name === request.name) && (!request.namespace || cluster.namespace === request.namespace);
    if (!matches) throw notFound("vcluster", request.id);
    return { vcluster: messageOf(env, cluster, request.includeKubeconfig) };
  }
  requireName(request.name);
  const { cluster } = loadCluster(env, request.namespace, request.name);
  return { vcluster: messageOf(env, cluster, request.includeKubeconfig) };
};

/** Sort orders ListVClusters accepts; the empty order is by namespace then name. */
const ORDERS: Readonly<Record<string, (a: { namespace: string; name: string; createMs: number }, b: typeof a) => number>> = {
  "": (a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
  name: (a, b) => a.name.localeCompare(b.name) || a.namespace.localeCompare(b.namespace),
  create_time: (a, b) => a.createMs - b.createMs,
  "-create_time": (a, b) => b.createMs - a.createMs,
};

const listVClusters: Handler<"listVClusters"> = (env, request) => {
  const order = ORDERS[request.orderBy];
  if (!order) throw invalidArgument("order_by", request.orderBy, 'allowed: "name", "create_time", "-create_time" or empty');
  const selector = parseLabelSelector(request.labelSelector);
  settleDue(env);
  const phases = new Set(request.phases);
  const matches = env.clusters
    .list()
    .map((cluster) => viewOf(env, cluster))
    .filter(({ cluster: c, phase }) =>
      (!request.namespace || c.namespace === request.namespace) &&
      (phases.size === 0 || phases.has(phase)) &&
      (!request.owner || c.owner === request.owner) &&
      (!request.project || c.project === request.project) &&
      selector(c.labels),
    )
    .sort((a, b) => order(a.cluster, b.cluster));
  const { pageToken, pageSize, ...filter } = request;
  const { page, next } = paginate(matches, pageSize, pageToken, { ...filter, phases: [...request.phases] });
  return { vclusters: page.map((v) => messageOf(env, v.cluster)), nextPageToken: next, totalCount: matches.length };
};

const updateVCluster: Handler<"updateVCluster"> = (env, request) => {
  requireName(request.name);
  // A plane started to act as the reference server reads every update as one without a mask.
  const paths = env.ignoreUpdateMask ? [] : (request.updateMask?.paths ?? []);
  const mask = parseUpdateMask(paths);
  assertLabels("labels", request.labels);
  const { cluster, phase } = loadCluster(env, request.namespace, request.name);
  if (phase === Phase.DELETING) throw failedPrecondition(`cannot update vcluster ${JSON.stringify(keyOf(request.namespace, request.name))}: it is being deleted`);
  // Without a mask the reference server replaces the whole spec if one is sent and merges labels.
  const specPaths = paths.length === 0 ? (request.spec ? [""] : []) : mask.specPaths;
  const spec = specPaths.length > 0 ? normalizeSpec(applySpecMask(cluster.spec, request.spec, specPaths)) : cluster.spec;
  const labels = paths.length === 0 ? { ...cluster.labels, ...request.labels } : mask.labels ? { ...request.labels } : cluster.labels;
  return mutate(env, ({ emit }) => {
    const nowMs = env.clock.now();
    env.journal.recordUpdateMask(nowMs, request.namespace, request.name, paths);
    const specChanged = specPaths.length > 0 && !equals(VClusterSpecSchema, spec, cluster.spec);
    env.clusters.update(cluster.id, { spec, labels, updateMs: nowMs, ...(specChanged ? { generation: cluster.generation + 1 } : {}) });
    emit(WatchEventType.MODIFIED, cluster.id);
    return { vcluster: messageOf(env, env.clusters.findById(cluster.id)!), operationId: newId(env, "op") };
  });
};

/** Phases a delete is accepted in without `force`; any other (but DELETING) needs it. */
const DELETABLE: readonly Phase[] = [Phase.RUNNING, Phase.SUSPENDED, Phase.ERROR];

const deleteVCluster: Handler<"deleteVCluster"> = (env, request, ctx) => {
  requireName(request.name);
  if (request.gracePeriodSeconds < 0) throw invalidArgument("grace_period_seconds", request.gracePeriodSeconds, "must be 0 or more");
  const view = loadCluster(env, request.namespace, request.name);
  const { cluster, inFlight, phase } = view;
  if (phase === Phase.DELETING) throw failedPrecondition(`vcluster ${JSON.stringify(keyOf(request.namespace, request.name))} is already being deleted`);
  if (!request.force) assertPhase(view, "delete (without force)", DELETABLE);
  const failureMessage = ctx.takeOperationFailure();
  return mutate(env, ({ emit }) => {
    const nowMs = env.clock.now();
    // A forced delete overtakes whatever the cluster was doing.
    for (const op of inFlight) env.clusters.markSettled(op.seq);
    env.clusters.update(cluster.id, { deleteMs: nowMs, updateMs: nowMs });
    const operationId = startOperation(env, cluster.id, "delete", {
      failureMessage,
      payload: { deleteSnapshots: request.deleteSnapshots },
      extraSeconds: request.gracePeriodSeconds,
    });
    emit(WatchEventType.MODIFIED, cluster.id);
    return { operationId, deleteTime: timestampFromMs(nowMs) };
  });
};

/** Create, read, list, update and delete. */
export function createClusterHandlers(env: VclusterEnv): Pick<VclusterHandlers, "createVCluster" | "getVCluster" | "listVClusters" | "updateVCluster" | "deleteVCluster"> {
  return {
    createVCluster: (request, ctx) => createVCluster(env, request, ctx),
    getVCluster: (request, ctx) => getVCluster(env, request, ctx),
    listVClusters: (request, ctx) => listVClusters(env, request, ctx),
    updateVCluster: (request, ctx) => updateVCluster(env, request, ctx),
    deleteVCluster: (request, ctx) => deleteVCluster(env, request, ctx),
  };
}
