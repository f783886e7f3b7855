"use strict";
// One cluster per lane: `test:lane<k>` is lane k's spec (JSON); lanes run from 0 up to the first missing key.
const pulumi = require("@pulumi/pulumi");
const { senlin } = require("clusterform");

const config = new pulumi.Config("test");

const clusters = [];
for (let k = 0; ; k++) {
  const raw = config.get(`lane${k}`);
  if (raw === undefined) break;
  clusters.push(new senlin.Cluster(`lane${k}`, JSON.parse(raw)));
}

// By lane: index k is lane k's.
exports.ids = clusters.map((c) => c.id);
