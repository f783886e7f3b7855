"use strict";
// Raising `bench:count` creates one more vcluster per `up`; changing `bench:replicas` scales the
// first one (ScaleVCluster). Names are fixed so a benchmark can aim a fault at one of them.
const pulumi = require("@pulumi/pulumi");
const { vcluster } = require("clusterform");

const config = new pulumi.Config("bench");
const count = config.getNumber("count") ?? 1;
const replicas = config.getNumber("replicas") ?? 1;

const names = [];
for (let i = 0; i < count; i++) {
  const vc = new vcluster.VCluster(`vc-${i}`, { name: `vc-${i}`, namespace: "bench", replicas: i === 0 ? replicas : 1 });
  names.push(vc.name);
}

exports.names = names;
