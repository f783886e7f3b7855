"use strict";
// Every kind through the native plugin, registered by type token (no SDK class needed), all on one
// explicit provider whose endpoint and credentials (secret) come from `test:` config.
// `test:round` moves every resource (the Senlin profile's metadata, the policy's name included) to its next in-place state; `test:poolType` replaces the pool;
// `test:respoolLimit` changes the resource pool alone (in place);
// `test:only=cluster` keeps just the cmassh cluster (cancellation and customTimeouts tests);
// `test:migrate=dynamic|native` is the one-cluster migration program (point 5); `test:importId`
// imports the native one with the `import` option instead.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("test");
const round = config.getNumber("round") ?? 0;
const pick = (values) => values[Math.min(round, values.length - 1)];
// `test:replaceAll` changes a field of every kind that has one that forces a replacement.
const swap = (before, after) => (config.getBoolean("replaceAll") ? after : before);

// CustomResource is abstract in the typings only: a plain subclass registers any type token.
class Native extends pulumi.CustomResource {}

const migrate = config.get("migrate");
if (migrate === "dynamic") {
  const { cmassh } = require("clusterform");
  new cmassh.Cluster("moved", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });
} else if (migrate === "native") {
  new Native(
    "clusterform:cmassh:Cluster",
    "moved",
    { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } },
    config.get("importId") ? { import: config.get("importId") } : { aliases: [{ type: "pulumi-nodejs:dynamic/cmassh:Cluster" }] },
  );
} else {
  const provider = new pulumi.ProviderResource("clusterform", "explicit", {
    endpoint: config.require("endpoint"),
    senlinUsername: config.require("senlinUsername"),
    senlinProjectName: config.require("senlinProjectName"),
    senlinPassword: config.requireSecret("senlinPassword"),
    cyclecloudUsername: "admin",
    cyclecloudPassword: config.requireSecret("cyclecloudPassword"),
  });
  const opts = { provider };
  const timeouts = config.get("customCreate");
  const cluster = new Native(
    "clusterform:cmassh:Cluster",
    "cluster",
    { kubernetesVersion: pick(["1.30.10", "1.31.6"]), controlPlane: { instanceType: swap("standard", "gpu"), count: 1 }, name: undefined, kubeconfig: undefined },
    { ...opts, ...(timeouts ? { customTimeouts: { create: timeouts } } : {}) },
  );
  if (config.get("only") !== "cluster") {
    new Native(
      "clusterform:cmassh:NodePool",
      "pool",
      { clusterName: cluster.name, instanceType: config.get("poolType") ?? "standard", count: pick([1, 2]) },
      opts,
    );
    const respool = new Native(
      "clusterform:peloton:ResourcePool",
      "respool",
      {
        resources: [
          { kind: "cpu", reservation: 4, limit: config.getNumber("respoolLimit") ?? pick([100, 120]) },
          { kind: "memory", reservation: 1024, limit: 102400 },
        ],
      },
      opts,
    );
    new Native(
      "clusterform:peloton:StatelessJob",
      "job",
      {
        respoolId: respool.id,
        instanceCount: 2,
        defaultSpec: { containers: [{ name: "web", image: pick(["nginx:1.27", "nginx:1.28"]), resources: { cpu: 0.5, memoryMb: 128 } }] },
        updatePolicy: { batchSize: 1 },
      },
      opts,
    );
    const vc = new Native("clusterform:vcluster:VCluster", "vc", { namespace: swap("native", "native-b"), replicas: pick([1, 2]), name: undefined, kubeconfig: undefined }, opts);
    new Native("clusterform:vcluster:Snapshot", "snap", { vclusterName: vc.name, namespace: swap("native", "native-b"), description: `round ${round}` }, opts);
    new Native("clusterform:senlin:Cluster", "senlin", { profile: "web-profile", minSize: 0, maxSize: 5, desiredCapacity: pick([1, 2]) }, opts);
    new Native("clusterform:cyclecloud:NodePool", "cc", { clusterName: "demo", nodearray: "execute", count: pick([1, 2]), nameOffset: swap(undefined, 20) }, opts);
    const serverSpec = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: swap("cirros", "cirros-0.6") } };
    new Native("clusterform:senlin:Profile", "profile", { spec: serverSpec, metadata: { round: String(round) }, name: undefined }, opts);
    const deletion = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: swap("OLDEST_FIRST", "YOUNGEST_FIRST") } };
    new Native("clusterform:senlin:Policy", "policy", { spec: deletion, name: pick(["native-deletion", "native-deletion-2"]) }, opts);
  }
}
