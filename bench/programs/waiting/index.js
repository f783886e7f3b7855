"use strict";
// The least a create whose platform operation takes T can cost: an inline dynamic provider whose
// create waits T and returns, with no call and no polling.
const pulumi = require("@pulumi/pulumi");

const provider = {
  async create(inputs) {
    await new Promise((resolve) => setTimeout(resolve, inputs.waitMs));
    return { id: inputs.key, outs: inputs };
  },
  async diff(_id, olds, news) {
    return { changes: olds.key !== news.key || olds.waitMs !== news.waitMs };
  },
};

class Waiting extends pulumi.dynamic.Resource {
  constructor(name, props, opts) {
    super(provider, name, props, opts, "bench", "Waiting");
  }
}

const config = new pulumi.Config("bench");
const count = config.getNumber("count") ?? 8;
const waitMs = config.requireNumber("waitMs");
for (let i = 0; i < count; i++) {
  new Waiting(`w-${i}`, { key: `w-${i}`, waitMs });
}

exports.count = count;
