import * as pulumi from "@pulumi/pulumi";
import { cmassh } from "clusterform";

// A cma-ssh cluster with two worker pools. The endpoint comes from `clusterform:endpoint` (stack
// config) or CLUSTERFORM_ENDPOINT, and defaults to the local control plane on 127.0.0.1:9020.
const config = new pulumi.Config();

const cluster = new cmassh.Cluster("demo", {
  kubernetesVersion: config.get("kubernetesVersion") ?? "1.31.6",
  controlPlane: { instanceType: "standard", count: 1, labels: { team: "platform" } },
});

const general = new cmassh.NodePool("general", {
  clusterName: cluster.name,
  instanceType: "standard",
  count: config.getNumber("generalCount") ?? 3,
  labels: { workload: "general" },
});

const gpu = new cmassh.NodePool("gpu", {
  clusterName: cluster.name,
  instanceType: "gpu",
  count: config.getNumber("gpuCount") ?? 1,
  labels: { workload: "training" },
});

export const clusterName = cluster.name;
export const clusterStatus = cluster.status;
export const kubernetesVersion = cluster.kubernetesVersion;
export const pools = { general: general.name, gpu: gpu.name };
export const kubeconfig = cluster.kubeconfig;
