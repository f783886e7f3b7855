"use strict";
// One cluster and a configurable number of pools; the first pool's size and the cluster's version
// come from config so the convergence benchmark can scale and upgrade in place.
const pulumi = require("@pulumi/pulumi");
const { cmassh } = require("clusterform");

const config = new pulumi.Config("bench");
const poolCount = config.getNumber("pools") ?? 50;
const firstPoolSize = config.getNumber("firstPoolSize") ?? 1;

const cluster = new cmassh.Cluster("main", {
  kubernetesVersion: config.get("version") ?? "1.30.10",
  controlPlane: { instanceType: "standard", count: 1 },
});

for (let i = 0; i < poolCount; i++) {
  new cmassh.NodePool(`pool-${i}`, {
    clusterName: cluster.name,
    instanceType: "standard",
    count: i === 0 ? firstPoolSize : 1,
  });
}

exports.clusterName = cluster.name;
