"use strict";
// The resources of bench/programs/tofu-pools (the same values; the cluster is "native-main", as
// both run against one plane), registered under the native tokens: the native plugin serves them.
const pulumi = require("@pulumi/pulumi");

class Native extends pulumi.CustomResource {}

const pools = new pulumi.Config("bench").getNumber("pools") ?? 99;
const cluster = new Native("clusterform:cmassh:Cluster", "main", {
  name: "native-main",
  kubernetesVersion: "1.30.10",
  controlPlane: { instanceType: "standard", count: 1 },
});
for (let i = 0; i < pools; i++) {
  new Native("clusterform:cmassh:NodePool", `pool-${i}`, { name: `pool-${i}`, clusterName: cluster.name, instanceType: "standard", count: 1 });
}

exports.pools = pools;
