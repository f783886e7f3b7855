"use strict";
// One stack whose resources move between the ways a program can declare them, chosen by `test:shape`:
// - `dynamic` / `native`: a cma-ssh cluster with a pool and a vcluster, from `clusterform` or
//   `clusterform/native` (the README's move, with no alias written by the program);
// - `retyped`: the same cluster and vcluster registered under the native tokens with no alias at
//   all (a resource whose type token changed: the engine creates the new and deletes the old);
// - `twins`: components of two types (a URN holds the parent's type, not its name) whose clusters have
//   one name and so derive one platform name; `test:second` is `native` or `dynamic` (the second
//   twin's class), `test:both` adds the second twin.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("test");
const shape = config.require("shape");
const clusterArgs = { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };

// CustomResource is abstract in the typings only: a plain subclass registers any type token.
class Raw extends pulumi.CustomResource {}

if (shape === "dynamic" || shape === "native") {
  const { cmassh, vcluster } = require(shape === "dynamic" ? "clusterform" : "clusterform/native");
  const cluster = new cmassh.Cluster("c", clusterArgs);
  new cmassh.NodePool("p", { clusterName: cluster.name, instanceType: "standard", count: 2 });
  new vcluster.VCluster("vc", { namespace: "held" });
} else if (shape === "retyped") {
  new Raw("clusterform:cmassh:Cluster", "c", { ...clusterArgs, name: undefined });
  new Raw("clusterform:vcluster:VCluster", "vc", { namespace: "held", name: undefined });
} else if (shape === "twins") {
  const group = (type, name, lib) => {
    const parent = new pulumi.ComponentResource(type, name);
    new lib.cmassh.Cluster("main", clusterArgs, { parent });
  };
  group("test:index:GroupA", "a", require("clusterform/native"));
  if (config.getBoolean("both")) group("test:index:GroupB", "b", require(config.get("second") === "dynamic" ? "clusterform" : "clusterform/native"));
}
