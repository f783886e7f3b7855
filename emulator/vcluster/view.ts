import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  type ConditionSchema,
  Phase,
  type Snapshot,
  SnapshotSchema,
  SnapshotStatus,
  type VCluster,
  VClusterSchema,
} from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { ApiServerAccess } from "../kubernetes/host";
import { apiServerEndpoint, renderKubeconfig, toBase64 } from "./kubeconfig";
import { DRAIN_REASON, drainingMessage, evictedAt } from "./drain";
import { derivePhase, isTransitioning } from "./lifecycle";
import type { SnapshotRecord } from "./snapshot-store";
import type { ClusterRecord, OperationRecord } from "./store";

/** The annotation carrying a vcluster's resource version: WatchVCluster resumes after it. */
export const RESOURCE_VERSION_ANNOTATION = "vcluster.api.v1/resource-version";

/** The vcluster Helm chart version the emulator reports. */
export const CHART_VERSION = "0.20.0";

/** The human status message per phase; ERROR carries the failure's own message. */
const PHASE_MESSAGE: Readonly<Partial<Record<Phase, string>>> = {
  [Phase.CREATING]: "vcluster is being created",
  [Phase.RUNNING]: "vcluster is running",
  [Phase.SUSPENDED]: "vcluster is suspended",
  [Phase.SCALING]: "vcluster is being scaled",
  [Phase.DELETING]: "vcluster is being deleted",
  [Phase.RESTORING]: "vcluster is being restored from a snapshot",
  [Phase.RESUMING]: "vcluster is resuming",
};

/** The Helm release status per phase. */
const HELM_STATUS: Readonly<Partial<Record<Phase, string>>> = {
  [Phase.CREATING]: "pending-install",
  [Phase.SCALING]: "pending-upgrade",
  [Phase.RESTORING]: "pending-upgrade",
  [Phase.RESUMING]: "pending-upgrade",
  [Phase.DELETING]: "uninstalling",
  [Phase.ERROR]: "failed",
};

/** The status of a snapshot at `nowMs`. */
export function snapshotStatus(s: SnapshotRecord, nowMs: number): SnapshotStatus {
  if (nowMs < s.readyMs) return SnapshotStatus.CREATING;
  return s.outcome === "fail" ? SnapshotStatus.FAILED : SnapshotStatus.READY;
}

/** A stored snapshot as the API shows it. */
export function toSnapshotMessage(s: SnapshotRecord, nowMs: number): Snapshot {
  return create(SnapshotSchema, {
    id: s.id,
    name: s.name,
    vclusterId: s.vclusterId,
    vclusterName: s.vclusterName,
    namespace: s.namespace,
    status: snapshotStatus(s, nowMs),
    sizeBytes: BigInt(s.sizeBytes),
    createTime: timestampFromMs(s.createMs),
    expireTime: s.expireMs > 0 ? timestampFromMs(s.expireMs) : undefined,
    labels: s.labels,
    description: s.description,
    storageUri: s.storageUri,
  });
}

/** Everything a vcluster message is built from, settled at `nowMs`. */
export interface ClusterViewInput {
  cluster: ClusterRecord;
  inFlight: readonly OperationRecord[];
  /** The pods the vcluster runs while RUNNING (drain.ts). */
  pods: number;
  /** The plane's time scale, which paces a drain's evictions. */
  timeScale: number;
  lastSnapshot: SnapshotRecord | undefined;
  nowMs: number;
  /** Put the default kubeconfig in the status (only while RUNNING). @default false */
  includeKubeconfig?: boolean;
  /** The cluster's real API server (`--kubernetes`), which its kubeconfig then names. */
  api?: ApiServerAccess;
}

/** Why the vcluster reads as it does: the failure in ERROR, a drain under way or timed out while RUNNING. */
interface StatusNote {
  reason: string;
  message: string;
}

function statusNote(c: ClusterRecord, phase: Phase, drain: OperationRecord | undefined, nowMs: number, timeScale: number): StatusNote {
  if (phase === Phase.ERROR) return { reason: c.reason, message: c.message };
  if (phase === Phase.RUNNING && drain) return { reason: DRAIN_REASON.draining, message: drainingMessage(drain, nowMs, timeScale) };
  if (phase === Phase.RUNNING && c.reason === DRAIN_REASON.timedOut) return { reason: c.reason, message: c.message };
  return { reason: "", message: PHASE_MESSAGE[phase] ?? "" };
}

function conditions(c: ClusterRecord, phase: Phase, note: StatusNote): MessageInitShape<typeof ConditionSchema>[] {
  const ready = phase === Phase.RUNNING;
  const list: MessageInitShape<typeof ConditionSchema>[] = [
    { type: "Initialized", status: "True", reason: "Created", lastTransitionTime: timestampFromMs(c.createMs) },
  ];
  // As the reference server: no Ready condition until the vcluster first became ready. After that
  // it turns False outside RUNNING (the reference leaves it True; docs/local-plane-fidelity.md).
  if (ready || c.readyMs > 0) {
    list.push({
      type: "Ready",
      status: ready ? "True" : "False",
      reason: ready ? "Running" : Phase[phase],
      lastTransitionTime: timestampFromMs(ready ? c.readyMs : c.updateMs),
    });
  }
  if (phase === Phase.SUSPENDED) list.push({ type: "Suspended", status: "True", reason: "Suspended", lastTransitionTime: timestampFromMs(c.updateMs) });
  // A suspend that is draining, or whose drain timed out, has not suspended the vcluster.
  if (note.reason === DRAIN_REASON.draining || note.reason === DRAIN_REASON.timedOut) {
    list.push({ type: "Suspended", status: "False", reason: note.reason, message: note.message, lastTransitionTime: timestampFromMs(c.updateMs) });
  }
  return list;
}

function readyReplicas(c: ClusterRecord, phase: Phase, inFlight: readonly OperationRecord[]): number {
  if (phase === Phase.RUNNING) return c.spec.replicas;
  if (phase === Phase.SCALING) return inFlight.find((op) => op.kind === "scale")?.payload.readyReplicas ?? 0;
  return 0;
}

/** A stored vcluster as the API shows it. */
export function toVClusterMessage({ cluster: c, inFlight, pods, timeScale, lastSnapshot, nowMs, includeKubeconfig = false, api }: ClusterViewInput): VCluster {
  const phase = derivePhase(c, inFlight);
  const drain = inFlight.find((op) => op.kind === "drain");
  const note = statusNote(c, phase, drain, nowMs, timeScale);
  const podCount = drain ? pods - evictedAt(drain, nowMs, timeScale) : pods;
  const endpoint = apiServerEndpoint(c.name, c.namespace, c.spec.ingress, api);
  const kubeconfig =
    includeKubeconfig && phase === Phase.RUNNING ? toBase64(renderKubeconfig(c.name, c.namespace, endpoint, { kind: "token", token: c.token }, api)) : "";
  return create(VClusterSchema, {
    id: c.id,
    name: c.name,
    namespace: c.namespace,
    spec: c.spec,
    status: {
      phase,
      message: note.message,
      reason: note.reason,
      conditions: conditions(c, phase, note),
      kubeconfig,
      apiServerEndpoint: c.readyMs > 0 ? endpoint : "",
      currentUsage: phase === Phase.RUNNING ? { cpuUsage: "50m", memoryUsage: "256Mi", storageUsage: "0", podCount, namespaceCount: 4, serviceCount: 1 } : undefined,
      readyReplicas: readyReplicas(c, phase, inFlight),
      totalReplicas: c.spec.replicas,
      readyTime: c.readyMs > 0 ? timestampFromMs(c.readyMs) : undefined,
      lastSnapshot: lastSnapshot && {
        id: lastSnapshot.id,
        name: lastSnapshot.name,
        createTime: timestampFromMs(lastSnapshot.createMs),
        sizeBytes: BigInt(lastSnapshot.sizeBytes),
        status: SnapshotStatus[snapshotStatus(lastSnapshot, nowMs)],
      },
      helmRelease: {
        name: c.name,
        chartVersion: CHART_VERSION,
        appVersion: c.spec.kubernetesVersion,
        status: HELM_STATUS[phase] ?? "deployed",
        revision: c.generation,
      },
      observedGeneration: BigInt(isTransitioning(inFlight) ? c.generation - 1 : c.generation),
    },
    labels: c.labels,
    annotations: { [RESOURCE_VERSION_ANNOTATION]: String(c.resourceVersion) },
    createTime: timestampFromMs(c.createMs),
    updateTime: timestampFromMs(c.updateMs),
    deleteTime: c.deleteMs > 0 ? timestampFromMs(c.deleteMs) : undefined,
    owner: c.owner,
    project: c.project,
  });
}
