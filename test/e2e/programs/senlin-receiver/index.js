"use strict";
// A cluster of the plane's seeded profile and a webhook receiver that scales it out. The receiver's
// params come from config, so a test changes them in place.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { senlin } = require("clusterform");

const config = new Config("test");
const params = JSON.parse(config.get("params") ?? '{"count":1}');

const cluster = new senlin.Cluster("main", { profile: "web-profile", minSize: 0, desiredCapacity: 1, maxSize: 6 });
const hook = new senlin.Receiver("hook", { cluster: cluster.id, action: "CLUSTER_SCALE_OUT", params });

exports.clusterId = cluster.id;
exports.receiverId = hook.id;
exports.alarmUrl = hook.alarmUrl;
