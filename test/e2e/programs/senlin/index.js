"use strict";
// Every input comes from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { senlin } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

// `undefined` leaves the option to the SDK's default.
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const spec = json("cluster", { profile: "web-profile" });
const cluster = new senlin.Cluster("main", spec, order(json("deleteBeforeReplace", undefined)));

const second = json("second", undefined);
const other = second ? new senlin.Cluster("other", second) : undefined;

exports.id = cluster.id;
exports.name = cluster.name;
exports.status = cluster.status;
exports.statusReason = cluster.statusReason;
exports.nodeIds = cluster.nodeIds;
exports.desiredCapacity = cluster.desiredCapacity;
exports.profileName = cluster.profileName;
exports.otherId = other ? other.id : undefined;
