import * as pulumi from "@pulumi/pulumi";
import { cmassh, cyclecloud, peloton, senlin, vcluster } from "clusterform";
import { cmassh as lookups } from "clusterform/native";

// A cma-ssh cluster with two worker pools, and below it resources of the four other platforms. The
// endpoint comes from `clusterform:endpoint` (stack config) or CLUSTERFORM_ENDPOINT, and defaults
// to the local control plane on 127.0.0.1:9020. Senlin and CycleCloud credentials are stack config
// (scripts/demo.sh sets the local control plane's admin / admin).
const config = new pulumi.Config();

// The cluster runs the newest patch of its Kubernetes line that the endpoint offers (a lookup: it
// only reads; the native plugin serves it, see Pulumi.yaml). `pulumi config set kubernetesMinor
// 1.32` upgrades it in place.
const line = config.get("kubernetesMinor") ?? "1.31";
const newestInLine = lookups.getVersionsOutput({ prefix: line }).apply(({ newest, versions }) => {
  if (newest === undefined) throw new Error(`cma-ssh offers no Kubernetes ${line}.x (it offers ${versions.join(", ") || "none"}): set kubernetesMinor to one of those lines`);
  return newest;
});

const cluster = new cmassh.Cluster("demo", {
  kubernetesVersion: newestInLine,
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

// One resource or two of each other platform, all on the same local control plane.

// Peloton: a resource pool and a stateless job of 4 instances, updated 1 instance at a time.
const services = new peloton.ResourcePool("services", {
  resources: [
    { kind: "cpu", reservation: 4, limit: 8 },
    { kind: "memory", reservation: 4096, limit: 8192 },
  ],
});
const web = new peloton.StatelessJob("web", {
  respoolId: services.id,
  instanceCount: config.getNumber("webInstances") ?? 4,
  defaultSpec: { containers: [{ name: "nginx", image: config.get("webImage") ?? "nginx:1.27", resources: { cpu: 0.5, memoryMb: 256 } }] },
  sla: { maximumUnavailableInstances: 1 },
  updatePolicy: { batchSize: 1 },
});

// vcluster: a virtual cluster in the host namespace team-dev.
const dev = new vcluster.VCluster("dev", {
  namespace: "team-dev",
  replicas: config.getNumber("devReplicas") ?? 1,
  suspended: config.getBoolean("devSuspended") ?? false,
});

// OpenStack Senlin: a profile and a deletion policy as resources, and a cluster that refers to both
// by id. A new image (`pulumi config set workerImage debian-12`) is a new profile, created first; the
// cluster then switches to it with Senlin's rolling update, and the old profile is deleted last.
const workerProfile = new senlin.Profile("worker", {
  spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: config.get("workerImage") ?? "cirros" } },
});
const oldestFirst = new senlin.Policy("oldest-first", {
  spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } },
});
const workers = new senlin.Cluster("workers", {
  profile: workerProfile.id,
  policies: [{ policy: oldestFirst.id }],
  minSize: 1,
  desiredCapacity: config.getNumber("workerNodes") ?? 2,
  maxSize: 5,
});

// Azure CycleCloud: nodes of the nodearray `execute` of the cluster `demo`.
const compute = new cyclecloud.NodePool("compute", {
  clusterName: "demo",
  nodearray: "execute",
  count: config.getNumber("computeNodes") ?? 2,
});

export const pelotonJob = { id: web.jobId, state: web.state };
export const vclusterPhase = dev.phase;
export const senlinNodes = workers.nodeIds;
export const senlinProfile = workerProfile.name;
export const cyclecloudNodes = compute.nodeNames;
