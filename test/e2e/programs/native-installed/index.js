"use strict";
// The default provider, configured by stack config `clusterform:endpoint`, from the installed plugin,
// through the package's native classes (`clusterform/native`: the SDK classes and Args of the
// dynamic resources, pointed at the plugin's tokens). `test:count` scales the pool in place.
const pulumi = require("@pulumi/pulumi");
const { cmassh } = require("clusterform/native");

const config = new pulumi.Config("test");
const cluster = new cmassh.Cluster("installed", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });
const pool = new cmassh.NodePool("workers", { clusterName: cluster.name, instanceType: "standard", count: config.getNumber("count") ?? 1 });

exports.clusterName = cluster.name;
exports.kubeconfig = cluster.kubeconfig;
exports.poolCount = pool.count;
exports.poolClusterStatus = pool.clusterStatus;
