"use strict";
// Every resource kind of every platform, `test:copies` of each, so one engine run covers them all.
// Senlin needs the profile `web-profile` on the plane and Keystone credentials in the stack config.
const pulumi = require("@pulumi/pulumi");
const { cmassh, cyclecloud, peloton, senlin, vcluster } = require("clusterform");

const config = new pulumi.Config("test");
const copies = config.getNumber("copies") ?? 1;
// Changing it scales each cma-ssh node pool in place: one update among unchanged resources.
const poolCount = config.getNumber("poolCount") ?? 1;

const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } };
const kinds = [];
for (let i = 0; i < copies; i++) {
  const cluster = new cmassh.Cluster(`cma-${i}`, { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });
  const pool = new cmassh.NodePool(`cma-pool-${i}`, { clusterName: cluster.name, instanceType: "standard", count: poolCount });
  const nodes = new cyclecloud.NodePool(`cc-${i}`, { clusterName: "demo", nodearray: "execute", count: 1, nameFormat: `cc${i}-%d` });
  const web = new senlin.Cluster(`senlin-${i}`, { profile: "web-profile", desiredCapacity: 1 });
  const respool = new peloton.ResourcePool(`respool-${i}`, {
    resources: [
      { kind: "cpu", reservation: 1, limit: 10 },
      { kind: "memory", reservation: 128, limit: 1024 },
    ],
  });
  const job = new peloton.StatelessJob(`job-${i}`, { respoolId: respool.id, instanceCount: 1, defaultSpec: { containers: [container] } });
  const vc = new vcluster.VCluster(`vc-${i}`, { namespace: "kinds" });
  const snap = new vcluster.Snapshot(`snap-${i}`, { vclusterName: vc.name, namespace: "kinds" });
  kinds.push({ cluster, pool, nodes, web, respool, job, vc, snap });
}

exports.kubeconfig = kinds.length > 0 ? kinds[0].cluster.kubeconfig : "";
exports.vclusterKubeconfig = kinds.length > 0 ? kinds[0].vc.kubeconfig : "";
exports.poolCounts = kinds.map((k) => k.pool.count);
