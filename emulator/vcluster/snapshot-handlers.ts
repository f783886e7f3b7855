import type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Phase, type SnapshotService, SnapshotStatus, WatchEventType } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { CallContext } from "../calls";
import type { VclusterHandlers } from "./cluster-handlers";
import { assertPhase, keyOf, loadCluster, messageOf, mutate, newId, settleDue, startOperation, type VclusterEnv } from "./context";
import { generateToken } from "./kubeconfig";
import { parseLabelSelector } from "./label-selector";
import { paginate } from "./page-token";
import type { SnapshotRecord } from "./snapshot-store";
import { alreadyExists, assertDnsLabel, failedPrecondition, invalidArgument, notFound } from "./validation";
import { snapshotStatus, toSnapshotMessage } from "./view";

type Methods = (typeof SnapshotService)["method"];

/** One synchronous implementation per SnapshotService RPC. */
export type SnapshotHandlers = {
  [K in keyof Methods]: (request: MessageShape<Methods[K]["input"]>, ctx: CallContext) => MessageInitShape<Methods[K]["output"]>;
};

/** Phases an in-place restore is accepted in: not while another change is under way. */
const RESTORABLE: readonly Phase[] = [Phase.RUNNING, Phase.SUSPENDED, Phase.ERROR];

function readySnapshot(env: VclusterEnv, id: string): SnapshotRecord {
  if (id === "") throw invalidArgument("snapshot_id", id, "is required");
  const nowMs = env.clock.now();
  const snapshot = env.snapshots.findById(id, nowMs);
  if (!snapshot) throw notFound("snapshot", id);
  const status = snapshotStatus(snapshot, nowMs);
  if (status !== SnapshotStatus.READY) throw failedPrecondition(`snapshot ${JSON.stringify(id)} is ${SnapshotStatus[status]}: only a READY snapshot can be restored`);
  return snapshot;
}

/** RestoreVCluster: in place (the spec goes back to the snapshot's) or into a new vcluster. */
export function createRestoreHandler(env: VclusterEnv): Pick<VclusterHandlers, "restoreVCluster"> {
  return {
    restoreVCluster(request, ctx) {
      settleDue(env);
      const snapshot = readySnapshot(env, request.snapshotId);
      const target = request.createNew
        ? { namespace: request.newNamespace || request.namespace || snapshot.namespace, name: request.newName }
        : { namespace: request.namespace, name: request.name };
      const existing = request.createNew ? undefined : loadCluster(env, target.namespace, target.name);
      if (existing) assertPhase(existing, "restore", RESTORABLE);
      if (request.createNew) {
        assertDnsLabel("new_name", target.name);
        assertDnsLabel("new_namespace", target.namespace);
        if (env.clusters.find(target.namespace, target.name)) throw alreadyExists("vcluster", keyOf(target.namespace, target.name));
      }
      const failureMessage = ctx.takeOperationFailure();
      return mutate(env, ({ emit }) => {
        const nowMs = env.clock.now();
        let id = existing?.cluster.id ?? "";
        if (existing) {
          env.clusters.update(id, { spec: snapshot.spec, generation: existing.cluster.generation + 1, basePhase: Phase.RUNNING, updateMs: nowMs });
        } else {
          id = newId(env, "vc");
          env.clusters.insert({
            id, name: target.name, namespace: target.namespace, spec: snapshot.spec, labels: { ...snapshot.clusterLabels },
            owner: snapshot.clusterLabels.owner ?? "", project: snapshot.clusterLabels.project ?? "", token: generateToken(),
            createMs: nowMs, updateMs: nowMs, readyMs: 0, deleteMs: 0, basePhase: Phase.RUNNING, reason: "", message: "",
            generation: 1, lastSnapshotId: "", resourceVersion: 0,
          });
        }
        const operationId = startOperation(env, id, "restore", { failureMessage });
        emit(existing ? WatchEventType.MODIFIED : WatchEventType.ADDED, id);
        return { vcluster: messageOf(env, env.clusters.findById(id)!), operationId };
      });
    },
  };
}

/** SnapshotService: list, get and delete. */
export function createSnapshotHandlers(env: VclusterEnv): SnapshotHandlers {
  return {
    listSnapshots(request) {
      const selector = parseLabelSelector(request.labelSelector);
      settleDue(env);
      const nowMs = env.clock.now();
      const matches = env.snapshots
        .list(nowMs)
        .filter((s) => (!request.vclusterName || s.vclusterName === request.vclusterName) && (!request.namespace || s.namespace === request.namespace) && selector(s.labels));
      const { pageToken, pageSize, ...filter } = request;
      const { page, next } = paginate(matches, pageSize, pageToken, filter);
      return { snapshots: page.map((s) => toSnapshotMessage(s, nowMs)), nextPageToken: next, totalCount: matches.length };
    },

    getSnapshot(request) {
      settleDue(env);
      const nowMs = env.clock.now();
      if (!request.id && !request.name) throw invalidArgument("id", request.id, "give the snapshot id, or its name with its namespace");
      const snapshot = request.id ? env.snapshots.findById(request.id, nowMs) : env.snapshots.findByName(request.namespace, request.name, nowMs);
      if (!snapshot) throw notFound("snapshot", request.id || keyOf(request.namespace, request.name));
      return { snapshot: toSnapshotMessage(snapshot, nowMs) };
    },

    deleteSnapshot(request) {
      if (!request.id) throw invalidArgument("id", request.id, "is required");
      settleDue(env);
      const nowMs = env.clock.now();
      const snapshot = env.snapshots.findById(request.id, nowMs);
      if (!snapshot) throw notFound("snapshot", request.id);
      if (snapshotStatus(snapshot, nowMs) === SnapshotStatus.CREATING && !request.force) {
        throw failedPrecondition(`snapshot ${JSON.stringify(request.id)} is still CREATING; wait for it or set force`);
      }
      return mutate(env, () => {
        env.snapshots.remove(snapshot.id);
        return { deleteTime: timestampFromMs(nowMs) };
      });
    },
  };
}
