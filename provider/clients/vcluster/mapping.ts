import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import {
  Phase,
  type Snapshot,
  SnapshotStatus,
  type VCluster,
  type VClusterSpec as WireSpec,
  VClusterSpecSchema,
  WatchEventType,
} from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { PhaseName, SnapshotState, SnapshotStatusName, VClusterSpec, VClusterState, WatchEventTypeName } from "./types";

/** The annotation in which the server reports a vcluster's resource version. */
export const RESOURCE_VERSION_ANNOTATION = "vcluster.api.v1/resource-version";

/** Wire phases to names; values from a newer server read as `UNSPECIFIED`. */
const PHASE_NAMES: Readonly<Record<Phase, PhaseName>> = {
  [Phase.UNSPECIFIED]: "UNSPECIFIED",
  [Phase.CREATING]: "CREATING",
  [Phase.RUNNING]: "RUNNING",
  [Phase.SUSPENDED]: "SUSPENDED",
  [Phase.SCALING]: "SCALING",
  [Phase.DELETING]: "DELETING",
  [Phase.ERROR]: "ERROR",
  [Phase.UPDATING]: "UPDATING",
  [Phase.RESTORING]: "RESTORING",
  [Phase.SNAPSHOTTING]: "SNAPSHOTTING",
  [Phase.RESUMING]: "RESUMING",
  [Phase.PENDING]: "PENDING",
};

/** Names back to wire phases, for list filters. */
export const PHASE_VALUES: Readonly<Record<PhaseName, Phase>> = Object.fromEntries(
  Object.entries(PHASE_NAMES).map(([value, name]) => [name, Number(value) as Phase]),
) as Record<PhaseName, Phase>;

const SNAPSHOT_STATUS_NAMES: Readonly<Record<SnapshotStatus, SnapshotStatusName>> = {
  [SnapshotStatus.UNSPECIFIED]: "UNSPECIFIED",
  [SnapshotStatus.CREATING]: "CREATING",
  [SnapshotStatus.READY]: "READY",
  [SnapshotStatus.FAILED]: "FAILED",
  [SnapshotStatus.DELETING]: "DELETING",
};

const EVENT_NAMES: Readonly<Record<WatchEventType, WatchEventTypeName>> = {
  [WatchEventType.UNSPECIFIED]: "UNSPECIFIED",
  [WatchEventType.ADDED]: "ADDED",
  [WatchEventType.MODIFIED]: "MODIFIED",
  [WatchEventType.DELETED]: "DELETED",
  [WatchEventType.ERROR]: "ERROR",
};

/** The name of a wire watch event type. */
export function eventTypeName(type: WatchEventType): WatchEventTypeName {
  return EVENT_NAMES[type] ?? "UNSPECIFIED";
}

/** Removes protobuf-es bookkeeping (`$typeName`) so a message reads as plain data. */
function plain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plain) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== "$typeName") out[key] = plain(inner);
  return out as T;
}

/** A plain spec as the wire message. */
export function toWireSpec(spec: VClusterSpec | undefined): WireSpec {
  return create(VClusterSpecSchema, spec ?? {});
}

/** A wire spec as a plain object (every field present, proto3 defaults included). */
export function fromWireSpec(spec: WireSpec | undefined): VClusterSpec {
  return plain(spec ?? create(VClusterSpecSchema));
}

function iso(ts: Timestamp | undefined): string {
  return ts ? timestampDate(ts).toISOString() : "";
}

/** Base64 of the wire to the kubeconfig's text. */
export function decodeKubeconfig(encoded: string): string {
  return encoded ? Buffer.from(encoded, "base64").toString("utf8") : "";
}

/** A wire vcluster as plain state; an absent message (proto3 default) reads as empty. */
export function fromVCluster(v: VCluster | undefined): VClusterState {
  const status = v?.status;
  return {
    id: v?.id ?? "",
    name: v?.name ?? "",
    namespace: v?.namespace ?? "",
    spec: fromWireSpec(v?.spec),
    labels: { ...v?.labels },
    owner: v?.owner ?? "",
    project: v?.project ?? "",
    phase: PHASE_NAMES[status?.phase ?? Phase.UNSPECIFIED] ?? "UNSPECIFIED",
    message: status?.message ?? "",
    reason: status?.reason ?? "",
    readyReplicas: status?.readyReplicas ?? 0,
    totalReplicas: status?.totalReplicas ?? 0,
    apiServerEndpoint: status?.apiServerEndpoint ?? "",
    kubeconfig: decodeKubeconfig(status?.kubeconfig ?? ""),
    observedGeneration: Number(status?.observedGeneration ?? 0n),
    resourceVersion: v?.annotations[RESOURCE_VERSION_ANNOTATION] ?? "",
    lastSnapshotId: status?.lastSnapshot?.id ?? "",
    conditions: (status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message })),
    helmRelease: {
      name: status?.helmRelease?.name ?? "",
      chartVersion: status?.helmRelease?.chartVersion ?? "",
      appVersion: status?.helmRelease?.appVersion ?? "",
      status: status?.helmRelease?.status ?? "",
      revision: status?.helmRelease?.revision ?? 0,
    },
    createTime: iso(v?.createTime),
    updateTime: iso(v?.updateTime),
    readyTime: iso(status?.readyTime),
    deleteTime: iso(v?.deleteTime),
  };
}

/** A wire snapshot as plain state. */
export function fromSnapshot(s: Snapshot | undefined): SnapshotState {
  return {
    id: s?.id ?? "",
    name: s?.name ?? "",
    vclusterId: s?.vclusterId ?? "",
    vclusterName: s?.vclusterName ?? "",
    namespace: s?.namespace ?? "",
    status: SNAPSHOT_STATUS_NAMES[s?.status ?? SnapshotStatus.UNSPECIFIED] ?? "UNSPECIFIED",
    sizeBytes: Number(s?.sizeBytes ?? 0n),
    labels: { ...s?.labels },
    description: s?.description ?? "",
    storageUri: s?.storageUri ?? "",
    createTime: iso(s?.createTime),
    expireTime: iso(s?.expireTime),
  };
}

/** A wire timestamp as ISO 8601, empty when absent. */
export { iso as isoTime };
