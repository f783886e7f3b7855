"use strict";
// Dynamic resources (`clusterform`) and native ones (`clusterform/native`, the plugin's tokens) side
// by side, every value from `test:` config, so one preview can break each policy rule on one
// resource and keep to it on another.
const pulumi = require("@pulumi/pulumi");
const dynamic = require("clusterform");
const native = require("clusterform/native");

const config = new pulumi.Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};
const plane = (type) => ({ instanceType: type, count: 1 });

// Native cluster: a new control plane type replaces it; its pool scales. A new instance type
// replaces a pool: `nat-pool` (derived name) under a new name, `nat-named` under its own.
const nat = new native.cmassh.Cluster("nat-cluster", { kubernetesVersion: json("natVersion", "1.30.10"), controlPlane: plane(json("natPlane", "standard")) });
new native.cmassh.NodePool("nat-pool", { clusterName: nat.name, instanceType: json("natPoolType", "standard"), count: json("natPoolCount", 2) });
new native.cmassh.NodePool("nat-named", { clusterName: nat.name, name: "named", instanceType: json("natNamedType", "standard"), count: 1 });

// Dynamic cluster: upgraded by `test:dynVersion`, deleted by `test:withDynCluster=false`; its pool scales.
if (json("withDynCluster", true)) {
  const dyn = new dynamic.cmassh.Cluster("dyn-cluster", { kubernetesVersion: json("dynVersion", "1.30.10"), controlPlane: plane("standard") });
  new dynamic.cmassh.NodePool("dyn-pool", { clusterName: dyn.name, instanceType: "standard", count: json("dynPoolCount", 5) });
}

// Peloton: one resource pool for every job.
const respool = new dynamic.peloton.ResourcePool("respool", {
  resources: [
    { kind: "cpu", reservation: 4, limit: 100 },
    { kind: "memory", reservation: 1024, limit: 102400 },
  ],
});

// A native job: its `owner` is the definition's `jobOwner`.
new native.peloton.StatelessJob("nat-job", {
  respoolId: respool.id,
  instanceCount: 2,
  defaultSpec: { containers: [{ name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } }] },
  updatePolicy: { batchSize: 1 },
  owner: json("natJobOwner", "alice"),
});

// Dynamic jobs: `test:jobs` maps a name to { instanceCount, batchSize }.
for (const [name, job] of Object.entries(json("jobs", { web: { instanceCount: 4, batchSize: 2 } }))) {
  new dynamic.peloton.StatelessJob(name, {
    respoolId: respool.id,
    instanceCount: job.instanceCount,
    defaultSpec: { containers: [{ name: "web", image: job.image ?? "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } }] },
    updatePolicy: { batchSize: job.batchSize },
  });
}
