"use strict";
// Every input comes from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { vcluster } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};

// `undefined` leaves the option to the SDK's default.
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const args = json("vc", { namespace: "team-a" });
const main = new vcluster.VCluster("main", args, order(json("deleteBeforeReplace", undefined)));

const snapArgs = json("snapshot", undefined);
const snapshot = snapArgs ? new vcluster.Snapshot("snap", { vclusterName: main.name, namespace: args.namespace, ...snapArgs }) : undefined;

const copyArgs = json("restored", undefined);
const copy =
  copyArgs && snapshot ? new vcluster.VCluster("copy", { namespace: args.namespace, ...copyArgs, restoreFrom: snapshot.snapshotId }) : undefined;

exports.name = main.name;
exports.vclusterId = main.vclusterId;
exports.phase = main.phase;
exports.kubeconfig = main.kubeconfig;
exports.readyReplicas = main.readyReplicas;
exports.apiServerEndpoint = main.apiServerEndpoint;
exports.helmRelease = main.helmRelease;
exports.conditions = main.conditions;
exports.snapshotId = snapshot ? snapshot.snapshotId : "";
exports.copyName = copy ? copy.name : "";
exports.copyReplicas = copy ? copy.readyReplicas : 0;
