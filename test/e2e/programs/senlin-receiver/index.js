"use strict";
// A cluster of the plane's seeded profile and a webhook receiver that scales it out. The receiver's
// params come from config, so a test changes them in place.
const pulumi = require("@pulumi/pulumi");
const { senlin } = require("clusterform");

const config = new pulumi.Config("test");
const params = JSON.parse(config.get("params") ?? '{"count":1}');

const cluster = new senlin.Cluster("main", { profile: "web-profile", minSize: 0, desiredCapacity: 1, maxSize: 6 });
const hook = new senlin.Receiver("hook", { cluster: cluster.id, action: "CLUSTER_SCALE_OUT", params });

exports.clusterId = cluster.id;
exports.receiverId = hook.id;
exports.alarmUrl = hook.alarmUrl;
