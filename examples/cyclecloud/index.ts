import * as pulumi from "@pulumi/pulumi";
import { cyclecloud } from "clusterform";

// Credentials (the password as a secret) and the endpoint are stack config:
//   pulumi config set clusterform:cyclecloudEndpoint https://cyclecloud.example.com
//   pulumi config set clusterform:cyclecloudUsername hpc-automation
//   pulumi config set --secret clusterform:cyclecloudPassword '...'
// Sizes come from stack config too, so `pulumi config set` drives the changes:
//   pulumi config set computeCores 256 -> one nodes/create of the missing nodes, in place
//   pulumi config set gpuNodes 1       -> one nodes/remove of the surplus (not-Ready nodes first, then the newest)
//   pulumi config set computeSize Standard_F8s_v2 -> the compute pool is replaced (old nodes removed first)
const config = new pulumi.Config();
const clusterName = config.get("clusterName") ?? "demo";

// Sized in cores: the pool holds enough nodes of the VM size to give at least this many vCPUs.
const compute = new cyclecloud.NodePool("compute", {
  clusterName,
  nodearray: "execute",
  coreCount: config.getNumber("computeCores") ?? 16,
  machineType: config.get("computeSize"),
  nameFormat: "compute-%d",
  nodeAttributes: { KeepAlive: true },
  timeouts: { create: "30m", update: "30m" },
});

// Sized in nodes; GPU quotas are small, and a shortfall fails the step naming what is available.
const gpu = new cyclecloud.NodePool("gpu", {
  clusterName,
  nodearray: "gpu",
  count: config.getNumber("gpuNodes") ?? 2,
  placementGroupId: "gpu-pg",
});

export const computeNodes = compute.nodeNames;
export const computeReady = compute.readyCount;
export const gpuNodes = gpu.nodeNames;
export const gpuReady = gpu.readyCount;
