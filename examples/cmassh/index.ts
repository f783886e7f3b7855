import * as pulumi from "@pulumi/pulumi";
import { cmassh } from "clusterform";

// Sizes and the version come from stack config, so `pulumi config set` drives the changes:
//   pulumi config set gpuNodes 4       -> one ScaleNodePool, in place
//   pulumi config set k8sVersion 1.32.3 -> an in-place upgrade
//   pulumi config set gpuType standard -> the GPU pool is replaced (new pool first)
const config = new pulumi.Config();

const cluster = new cmassh.Cluster("analytics", {
  // A chosen name: replacing this cluster deletes the old one first, since names cannot clash.
  name: config.get("clusterName") ?? "analytics",
  kubernetesVersion: config.get("k8sVersion") ?? "1.31.6",
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
