"use strict";
// Every resource kind of the five platforms, in units of 10: a cma-ssh cluster and a node pool, a
// Peloton resource pool and a job, a vcluster and a snapshot of it, two Senlin clusters and two
// CycleCloud node pools. Unit u's names hold u, so raising `bench:units` only adds resources.
// Sizes stay small (one node, one instance) so 30 units fit the plane's quotas: each Peloton job
// in its own pool, each CycleCloud pool 1 node of a nodearray the benchmark makes large enough.
const pulumi = require("@pulumi/pulumi");
const { cmassh, cyclecloud, peloton, senlin, vcluster } = require("clusterform");

const config = new pulumi.Config("bench");
const units = config.getNumber("units") ?? 1;

for (let u = 0; u < units; u++) {
  const cluster = new cmassh.Cluster(`cm-${u}`, {
    kubernetesVersion: "1.31.6",
    controlPlane: { instanceType: "standard", count: 1 },
  });
  new cmassh.NodePool(`cm-${u}-pool`, { clusterName: cluster.name, instanceType: "standard", count: 1 });

  const pool = new peloton.ResourcePool(`pl-${u}`, {
    resources: [
      { kind: "cpu", reservation: 1, limit: 2 },
      { kind: "memory", reservation: 256, limit: 1024 },
    ],
  });
  new peloton.StatelessJob(`pl-${u}-job`, {
    respoolId: pool.id,
    instanceCount: 1,
    defaultSpec: { containers: [{ name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } }] },
  });

  const vc = new vcluster.VCluster(`vc-${u}`, { namespace: "bench", replicas: 1 });
  new vcluster.Snapshot(`vc-${u}-snap`, { vclusterName: vc.name, namespace: "bench" });

  for (let j = 0; j < 2; j++) {
    new senlin.Cluster(`sl-${u}-${j}`, { profile: "web-profile", minSize: 0, maxSize: 2, desiredCapacity: 1 });
    new cyclecloud.NodePool(`cc-${u}-${j}`, { clusterName: "demo", nodearray: "execute", count: 1, nameFormat: `u${u}n${j}-%d` });
  }
}

exports.units = units;
