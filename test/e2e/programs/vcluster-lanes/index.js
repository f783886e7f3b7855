"use strict";
// `test:lanes` independent copies of the field table's resources: lane k reads its vcluster's
// arguments from `test:vc<k>` and its snapshot's from `test:snapshot<k>`, so a test changes one
// field of several lanes in one run. Lanes name their objects apart (names are unique per namespace).
const pulumi = require("@pulumi/pulumi");
const { vcluster } = require("clusterform");

const config = new pulumi.Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

const lanes = [];
for (let k = 0; k < json("lanes", 1); k++) {
  const args = json(`vc${k}`, { namespace: "team-a", name: `lane-${k}` });
  const main = new vcluster.VCluster(`main-${k}`, args);

  const snapArgs = json(`snapshot${k}`, undefined);
  const snapshot = snapArgs ? new vcluster.Snapshot(`snap-${k}`, { vclusterName: main.name, namespace: args.namespace, ...snapArgs }) : undefined;

  lanes.push({
    name: main.name,
    namespace: main.namespace,
    vclusterId: main.vclusterId,
    phase: main.phase,
    snapshotId: snapshot ? snapshot.snapshotId : "",
  });
}

exports.lanes = lanes;
