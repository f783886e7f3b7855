"use strict";
// One resource (or several) of every kind of every platform. `test:round` moves every resource to
// its next state at once: round 0 creates, rounds 1 and 2 each change one in-place field of each
// kind (the snapshot has none, so its description change is a replacement). The Senlin cluster is
// built from the stack's profile and governed by its policy, as users write it.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { getStack } = require("@pulumi/pulumi/metadata");
const { cmassh, cyclecloud, peloton, senlin, vcluster } = require("clusterform");

const config = new Config("test");
const round = config.getNumber("round") ?? 0;
const pools = config.getNumber("pools") ?? 1;
const jobs = config.getNumber("jobs") ?? 1;
const pick = (values) => values[Math.min(round, values.length - 1)];

const cluster = new cmassh.Cluster("cluster", {
  kubernetesVersion: pick(["1.30.10", "1.31.6", "1.32.3"]),
  controlPlane: { instanceType: "standard", count: 1 },
});
const nodePools = [];
for (let i = 0; i < pools; i++) {
  nodePools.push(new cmassh.NodePool(`pool-${i}`, { clusterName: cluster.name, instanceType: "standard", count: pick([1, 2, 3]) }));
}

const respool = new peloton.ResourcePool("respool", {
  resources: [
    { kind: "cpu", reservation: 4, limit: pick([100, 120, 140]) },
    { kind: "memory", reservation: 1024, limit: 102400 },
  ],
});
const statelessJobs = [];
for (let i = 0; i < jobs; i++) {
  statelessJobs.push(
    new peloton.StatelessJob(`job-${i}`, {
      respoolId: respool.id,
      instanceCount: 2,
      defaultSpec: { containers: [{ name: "web", image: pick(["nginx:1.27", "nginx:1.28", "nginx:1.29"]), resources: { cpu: 0.5, memoryMb: 128 } }] },
      updatePolicy: { batchSize: 1 },
    }),
  );
}

const vc = new vcluster.VCluster("vc", { namespace: "matrix", replicas: pick([1, 2, 3]) });
const snapshot = new vcluster.Snapshot("snap", { vclusterName: vc.name, namespace: vc.namespace, description: `round ${Math.min(round, 2)}` });

const profile = new senlin.Profile("profile", {
  spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } },
  metadata: { round: `r${Math.min(round, 2)}` },
});
// Policies keep no metadata: Senlin tells an interrupted create's policy by its name and spec, so
// the name carries the stack (two stacks on one plane never share one). Round 0 derives it.
const policy = new senlin.Policy("policy", {
  spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } },
  name: round === 0 ? undefined : `deletion-r${Math.min(round, 2)}-${getStack()}`,
});
const senlinCluster = new senlin.Cluster("senlin", {
  profile: profile.id,
  policies: [{ policy: policy.id }],
  minSize: 0,
  maxSize: 5,
  desiredCapacity: pick([1, 2, 3]),
});

const ccPool = new cyclecloud.NodePool("cc", { clusterName: "demo", nodearray: "execute", count: pick([1, 2, 3]) });

exports.clusterName = cluster.name;
exports.clusterVersion = cluster.kubernetesVersion;
exports.poolCounts = nodePools.map((p) => p.count);
exports.respoolId = respool.respoolId;
exports.jobStates = statelessJobs.map((j) => j.state);
exports.vcReplicas = vc.readyReplicas;
exports.snapshotStatus = snapshot.status;
exports.senlinCapacity = senlinCluster.desiredCapacity;
exports.profileType = profile.profileType;
exports.policyName = policy.name;
exports.ccReadyCount = ccPool.readyCount;
