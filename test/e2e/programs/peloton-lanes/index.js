"use strict";
// K independent copies ("lanes") of the field table's resources: lane k has the pool compute-k and
// the job web-k, and the pools other-k and upper-k when the lists withOtherPool and withUpperPool
// name the lane, each driven by its own entry of the config maps keyed by lane, so one engine run
// can change one field in every lane at once.
const pulumi = require("@pulumi/pulumi");
const { peloton } = require("clusterform");

const config = new pulumi.Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const lanes = json("lanes", 1);
const pools = json("pools", {});
const jobs = json("jobs", {});
const withOther = json("withOtherPool", []);
const withUpper = json("withUpperPool", []);
const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } };

const out = {};
for (let k = 0; k < lanes; k++) {
  const other = withOther.includes(k) ? new peloton.ResourcePool(`other-${k}`, { description: "second pool" }) : undefined;
  const upper = withUpper.includes(k) ? new peloton.ResourcePool(`upper-${k}`, { description: "a parent pool" }) : undefined;
  const { deleteBeforeReplace: poolOrder, parent, ...poolArgs } = pools[k] ?? {
    resources: [
      { kind: "cpu", reservation: 4, limit: 100 },
      { kind: "memory", reservation: 1024, limit: 102400 },
    ],
  };
  const pool = new peloton.ResourcePool(
    `compute-${k}`,
    { ...poolArgs, parent: parent === "upper" && upper ? upper.id : parent },
    order(poolOrder),
  );
  const lane = { poolId: pool.id, poolPath: pool.path, otherPoolId: other ? other.id : "", upperPoolId: upper ? upper.id : "" };
  const spec = jobs[k];
  if (spec !== undefined) {
    const { pool: poolKey, deleteBeforeReplace, ...args } = spec;
    const job = new peloton.StatelessJob(
      `web-${k}`,
      {
        respoolId: poolKey === "other" && other ? other.id : pool.id,
        instanceCount: 2,
        defaultSpec: { containers: [container] },
        ...args,
      },
      order(deleteBeforeReplace),
    );
    Object.assign(lane, { jobId: job.jobId, jobState: job.state, workflow: job.workflow });
  }
  out[k] = lane;
}

exports.lanes = out;
