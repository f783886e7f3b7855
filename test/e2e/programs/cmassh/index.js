"use strict";
// Every input of both resources comes from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { cmassh } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

// `undefined` leaves the option to the SDK's default.
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const cluster = new cmassh.Cluster(
  "main",
  {
    name: json("clusterName", undefined),
    kubernetesVersion: json("version", "1.30.10"),
    controlPlane: json("controlPlane", { instanceType: "standard", count: 1 }),
    timeouts: json("clusterTimeouts", undefined),
    deletionPolicy: json("clusterDeletionPolicy", undefined),
  },
  order(json("clusterDeleteBeforeReplace", undefined)),
);

const other = json("withOther", false)
  ? new cmassh.Cluster("other", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } })
  : undefined;

const pools = {};
for (const [key, spec] of Object.entries(json("pools", {}))) {
  pools[key] = new cmassh.NodePool(
    key,
    {
      clusterName: spec.cluster === "other" && other ? other.name : cluster.name,
      name: spec.name,
      instanceType: spec.instanceType ?? "standard",
      count: spec.count ?? 1,
      labels: spec.labels,
      timeouts: spec.timeouts,
    },
    order(spec.deleteBeforeReplace),
  );
}

exports.clusterName = cluster.name;
exports.status = cluster.status;
exports.kubeconfig = cluster.kubeconfig;
exports.poolNames = Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p.name]));
