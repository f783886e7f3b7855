"use strict";
// Lanes: independent copies of the same pools, so one `up` can change a field in every lane at once.
// `test:lanes` lists the lane ids (e.g. ["a", "b", "c"]); `test:pools-<lane>` maps pool keys to
// specs as the `cyclecloud` program takes them. Lane `<lane>`'s pool `<key>` is the resource
// `<key>-<lane>`, and its cluster is `<clusterName>-<lane>` (clusterName defaults to "demo"), so
// lanes share no resource name, request id, cluster, quota or node name.
const pulumi = require("@pulumi/pulumi");
const { cyclecloud } = require("clusterform");

const config = new pulumi.Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

const pools = {};
for (const lane of json("lanes", [])) {
  for (const [key, spec] of Object.entries(json(`pools-${lane}`, {}))) {
    const name = `${key}-${lane}`;
    pools[name] = new cyclecloud.NodePool(
      name,
      {
        clusterName: `${spec.clusterName ?? "demo"}-${lane}`,
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
}

// Keyed by resource name (`<key>-<lane>`).
const field = (name) => Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p[name]]));
exports.nodeNames = field("nodeNames");
exports.nodeIds = field("nodeIds");
exports.readyCount = field("readyCount");
exports.lastOperationId = field("lastOperationId");
