"use strict";
// A profile and a policy as resources, and a cluster that refers to both by id. Every input comes
// from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { senlin } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

const profile = new senlin.Profile("web", json("profile", { spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } }));
const policy = new senlin.Policy("del", json("policy", { spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } } }));
// A batch policy only when config gives one: the rolling-update test attaches it.
const batchArgs = json("batch", null);
const batch = batchArgs === null ? undefined : new senlin.Policy("batch", batchArgs);
const policies = [{ policy: policy.id }, ...(batch ? [{ policy: batch.id }] : [])];
const cluster = new senlin.Cluster("main", { ...json("cluster", { desiredCapacity: 2 }), profile: profile.id, policies });

// A profile nothing uses, when config asks for one: what `up --replace` of such a profile does.
if (json("spare", false)) exports.spareId = new senlin.Profile("spare", { spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "spare" } } }).id;

exports.profileId = profile.id;
exports.profileName = profile.name;
exports.policyId = policy.id;
exports.policyName = policy.name;
exports.clusterId = cluster.id;
exports.nodeIds = cluster.nodeIds;
