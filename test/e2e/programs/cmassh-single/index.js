"use strict";
const { cmassh } = require("clusterform");

const cluster = new cmassh.Cluster("solo", {
  kubernetesVersion: "1.30.10",
  controlPlane: { instanceType: "standard", count: 1 },
  timeouts: { create: "2m", delete: "2m" },
});

exports.clusterName = cluster.name;
exports.status = cluster.status;
