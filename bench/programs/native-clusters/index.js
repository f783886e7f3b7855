"use strict";
// Independent cma-ssh clusters registered under the native token: the plugin serves them.
const pulumi = require("@pulumi/pulumi");

class Native extends pulumi.CustomResource {}

const count = new pulumi.Config("bench").getNumber("count") ?? 8;
for (let i = 0; i < count; i++) {
  new Native("clusterform:cmassh:Cluster", `c-${i}`, { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } });
}

exports.count = count;
