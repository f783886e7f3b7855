"use strict";
// Independent copies ("lanes") of the cmassh program's resources: `test:lane<k>` is lane k's spec
// (JSON, the same fields as the cmassh program's config keys); lanes run from 0 up to the first
// missing key. Lane k's resources are `main-<k>`, `other-<k>` and `<pool>-<k>`, so their derived
// names differ between lanes (cma-ssh cluster names are unique on the platform; pool names only
// within their cluster).
const pulumi = require("@pulumi/pulumi");
const { cmassh } = require("clusterform");

const config = new pulumi.Config("test");

// `undefined` leaves the option to the SDK's default.
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const lanes = [];
for (let k = 0; ; k++) {
  const raw = config.get(`lane${k}`);
  if (raw === undefined) break;
  const spec = JSON.parse(raw);

  const cluster = new cmassh.Cluster(
    `main-${k}`,
    {
      name: spec.clusterName,
      kubernetesVersion: spec.version ?? "1.30.10",
      controlPlane: spec.controlPlane ?? { instanceType: "standard", count: 1 },
      timeouts: spec.clusterTimeouts,
    },
    order(spec.clusterDeleteBeforeReplace),
  );

  const other = spec.withOther
    ? new cmassh.Cluster(`other-${k}`, { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } })
    : undefined;

  const pools = {};
  for (const [key, pool] of Object.entries(spec.pools ?? {})) {
    pools[key] = new cmassh.NodePool(
      `${key}-${k}`,
      {
        clusterName: pool.cluster === "other" && other ? other.name : cluster.name,
        name: pool.name,
        instanceType: pool.instanceType ?? "standard",
        count: pool.count ?? 1,
        labels: pool.labels,
        timeouts: pool.timeouts,
      },
      order(pool.deleteBeforeReplace),
    );
  }

  lanes.push({
    clusterName: cluster.name,
    poolNames: Object.fromEntries(Object.entries(pools).map(([key, p]) => [key, p.name])),
  });
}

// By lane: index k is lane k's.
exports.lanes = lanes;
