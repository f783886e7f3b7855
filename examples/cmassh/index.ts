import * as pulumi from "@pulumi/pulumi";
import { cmassh } from "clusterform";
import { cmassh as lookups } from "clusterform/native";

// Sizes and the Kubernetes line come from stack config, so `pulumi config set` drives the changes:
//   pulumi config set gpuNodes 4       -> one ScaleNodePool, in place
//   pulumi config set k8sMinor 1.32    -> an in-place upgrade to the newest 1.32 patch on offer
//   pulumi config set gpuType standard -> the GPU pool is replaced (new pool first)
const config = new pulumi.Config();

// The newest patch of the line that the endpoint offers a new cluster (a lookup: it only reads; the
// native plugin serves it, see Pulumi.yaml). A patch the platform adds later is an upgrade the next
// preview shows.
const line = config.get("k8sMinor") ?? "1.31";
const kubernetesVersion = lookups.getVersionsOutput({ prefix: line }).apply(({ newest, versions }) => {
  if (newest === undefined) throw new Error(`cma-ssh offers no Kubernetes ${line}.x (it offers ${versions.join(", ") || "none"}): set k8sMinor to one of those lines`);
  return newest;
});

const cluster = new cmassh.Cluster("analytics", {
  // A chosen name: replacing this cluster deletes the old one first, since names cannot clash.
  name: config.get("clusterName") ?? "analytics",
  kubernetesVersion,
  controlPlane: {
    instanceType: "standard",
    count: 1,
    labels: { "team.example.com/owner": "data-platform" },
  },
  timeouts: { create: "45m", update: "1h" },
});

const general = new cmassh.NodePool("general", {
  clusterName: cluster.name,
  instanceType: "standard",
  count: config.getNumber("generalNodes") ?? 3,
  labels: { workload: "general" },
});

const gpu = new cmassh.NodePool("gpu", {
  clusterName: cluster.name,
  instanceType: config.get("gpuType") ?? "gpu",
  count: config.getNumber("gpuNodes") ?? 2,
  labels: { workload: "training", "nvidia.com/gpu.present": "true" },
  timeouts: { create: "30m" },
});

export const clusterName = cluster.name;
export const status = cluster.status;
export const nodePools = [general.name, gpu.name];
export const kubeconfig = cluster.kubeconfig;
