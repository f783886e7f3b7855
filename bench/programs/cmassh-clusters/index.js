"use strict";
// Independent clusters: nothing orders their creates but the engine's `--parallel`.
const pulumi = require("@pulumi/pulumi");
const { cmassh } = require("clusterform");

const count = new pulumi.Config("bench").getNumber("count") ?? 8;
for (let i = 0; i < count; i++) {
  new cmassh.Cluster(`c-${i}`, { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } });
}

exports.count = count;
