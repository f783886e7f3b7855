"use strict";
// Changing `bench:capacity` makes the next `up` one resize action.
const pulumi = require("@pulumi/pulumi");
const { senlin } = require("clusterform");

const config = new pulumi.Config("bench");

const cluster = new senlin.Cluster("main", {
  profile: "web-profile",
  minSize: 0,
  maxSize: 10,
  desiredCapacity: config.getNumber("capacity") ?? 1,
});

exports.id = cluster.id;
exports.desiredCapacity = cluster.desiredCapacity;
