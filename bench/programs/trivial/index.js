"use strict";
// The cheapest dynamic resource Pulumi allows: an inline provider with create and diff only. One
// root and the rest depending on it, the same graph as a cluster and its node pools.
const pulumi = require("@pulumi/pulumi");

const provider = {
  async create(inputs) {
    return { id: inputs.key, outs: inputs };
  },
  async diff(_id, olds, news) {
    return { changes: olds.key !== news.key || olds.parent !== news.parent };
  },
};

class Trivial extends pulumi.dynamic.Resource {
  constructor(name, props, opts) {
    super(provider, name, props, opts, "bench", "Trivial");
  }
}

const count = new pulumi.Config("bench").getNumber("resources") ?? 51;
const root = new Trivial("root", { key: "root", parent: "" });
for (let i = 1; i < count; i++) {
  new Trivial(`item-${i}`, { key: `item-${i}`, parent: root.key });
}

exports.rootKey = root.key;
