import { create } from "@bufbuild/protobuf";
import {
  type ClusterDetailItem,
  type ClusterItem,
  ClusterStatus,
  type CreateClusterMsg,
  CreateClusterMsgSchema,
  type GetVersionReply_VersionInformation,
  type MachineSpec,
  MachineSpecSchema,
} from "../../../proto/gen/cmassh/api_pb";
import type {
  ClusterDetail,
  ClusterSpec,
  ClusterStatusName,
  ClusterSummary,
  KubernetesLabel,
  NodePoolSpec,
  VersionInformation,
} from "./types";

/** Wire enum values to their names. */
const STATUS_NAMES: Readonly<Record<ClusterStatus, ClusterStatusName>> = {
  [ClusterStatus.STATUS_UNSPECIFIED]: "STATUS_UNSPECIFIED",
  [ClusterStatus.PROVISIONING]: "PROVISIONING",
  [ClusterStatus.RUNNING]: "RUNNING",
  [ClusterStatus.RECONCILING]: "RECONCILING",
  [ClusterStatus.STOPPING]: "STOPPING",
  [ClusterStatus.ERROR]: "ERROR",
  [ClusterStatus.DEGRADED]: "DEGRADED",
};

/** The name of a wire status; values from a newer server map to `STATUS_UNSPECIFIED`. */
export function statusName(status: ClusterStatus): ClusterStatusName {
  return STATUS_NAMES[status] ?? "STATUS_UNSPECIFIED";
}

function labels(list: readonly KubernetesLabel[] | undefined): KubernetesLabel[] {
  return (list ?? []).map((l) => ({ name: l.name, value: l.value }));
}

/** A plain pool spec as the wire message. */
export function toMachineSpec(pool: NodePoolSpec): MachineSpec {
  return create(MachineSpecSchema, {
    name: pool.name,
    instanceType: pool.instanceType,
    count: pool.count,
    labels: labels(pool.labels),
  });
}

/** A plain cluster spec as the wire message. */
export function toCreateClusterMsg(spec: ClusterSpec): CreateClusterMsg {
  return create(CreateClusterMsgSchema, {
    name: spec.name,
    k8sVersion: spec.k8sVersion,
    controlPlaneNodes: {
      instanceType: spec.controlPlaneNodes.instanceType,
      count: spec.controlPlaneNodes.count,
      labels: labels(spec.controlPlaneNodes.labels),
    },
    workerNodePools: (spec.workerNodePools ?? []).map(toMachineSpec),
  });
}

/** A wire cluster item as a plain summary; an absent item (proto3 default) reads as empty. */
export function fromClusterItem(item: Pick<ClusterItem, "name" | "status" | "statusMessage"> | undefined): ClusterSummary {
  return {
    name: item?.name ?? "",
    status: statusName(item?.status ?? ClusterStatus.STATUS_UNSPECIFIED),
    statusMessage: item?.statusMessage ?? "",
  };
}

/** A wire cluster detail as a plain object. */
export function fromClusterDetail(item: ClusterDetailItem | undefined): ClusterDetail {
  return { ...fromClusterItem(item), kubeconfig: item?.kubeconfig ?? "" };
}

/** Wire version information as a plain object. */
export function fromVersionInformation(info: GetVersionReply_VersionInformation | undefined): VersionInformation {
  return {
    gitVersion: info?.gitVersion ?? "",
    gitCommit: info?.gitCommit ?? "",
    gitTreeState: info?.gitTreeState ?? "",
    buildDate: info?.buildDate ?? "",
    goVersion: info?.goVersion ?? "",
    compiler: info?.compiler ?? "",
    platform: info?.platform ?? "",
  };
}
