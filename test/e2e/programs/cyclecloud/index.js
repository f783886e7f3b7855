"use strict";
// Every pool and every input comes from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { cyclecloud } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

const pools = {};
for (const [key, spec] of Object.entries(json("pools", {}))) {
  pools[key] = new cyclecloud.NodePool(
    key,
    {
      clusterName: spec.clusterName ?? "demo",
      nodearray: spec.nodearray ?? "execute",
      count: spec.count,
      coreCount: spec.coreCount,
      machineType: spec.machineType,
      nameFormat: spec.nameFormat,
      nameOffset: spec.nameOffset,
      nodeAttributes: spec.nodeAttributes,
      placementGroupId: spec.placementGroupId,
      timeouts: spec.timeouts,
    },
    // `undefined` leaves the option to the SDK's default.
    spec.deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace: spec.deleteBeforeReplace },
  );
}

const field = (name) => Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p[name]]));
exports.nodeNames = field("nodeNames");
exports.nodeIds = field("nodeIds");
exports.readyCount = field("readyCount");
exports.lastOperationId = field("lastOperationId");
