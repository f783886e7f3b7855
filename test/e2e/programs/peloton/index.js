"use strict";
// Every input comes from config, so a test changes one field at a time.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { peloton } = require("clusterform");

const config = new Config("test");
const json = (key, fallback) => {
  const raw = config.get(key);
  return raw === undefined ? fallback : JSON.parse(raw);
};
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const other = json("withOtherPool", false) ? new peloton.ResourcePool("other", { description: "second pool" }) : undefined;
const upper = json("withUpperPool", false) ? new peloton.ResourcePool("upper", { description: "a parent pool" }) : undefined;
const { deleteBeforeReplace: poolOrder, parent, ...poolArgs } = json("pool", {
  resources: [
    { kind: "cpu", reservation: 4, limit: 100 },
    { kind: "memory", reservation: 1024, limit: 102400 },
  ],
});
const pool = new peloton.ResourcePool(
  "compute",
  { ...poolArgs, parent: parent === "upper" && upper ? upper.id : parent },
  order(poolOrder),
);

const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } };
const jobs = {};
for (const [key, spec] of Object.entries(json("jobs", {}))) {
  const { pool: poolKey, deleteBeforeReplace, ...args } = spec;
  jobs[key] = new peloton.StatelessJob(
    key,
    {
      respoolId: poolKey === "other" && other ? other.id : pool.id,
      instanceCount: 2,
      defaultSpec: { containers: [container] },
      ...args,
    },
    order(deleteBeforeReplace),
  );
}

exports.poolId = pool.id;
exports.poolPath = pool.path;
exports.otherPoolId = other ? other.id : "";
exports.upperPoolId = upper ? upper.id : "";
exports.jobIds = Object.fromEntries(Object.entries(jobs).map(([k, j]) => [k, j.jobId]));
exports.jobStates = Object.fromEntries(Object.entries(jobs).map(([k, j]) => [k, j.state]));
exports.workflows = Object.fromEntries(Object.entries(jobs).map(([k, j]) => [k, j.workflow]));
