"use strict";
// Raising `bench:count` makes the next `up` create that many more nodes (one CreateNodes call).
const pulumi = require("@pulumi/pulumi");
const { cyclecloud } = require("clusterform");

const config = new pulumi.Config("bench");

const pool = new cyclecloud.NodePool("work", {
  clusterName: "demo",
  nodearray: "execute",
  count: config.getNumber("count") ?? 1,
});

exports.nodeNames = pool.nodeNames;
exports.readyCount = pool.readyCount;
