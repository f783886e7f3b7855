"use strict";
// A pool and one job. A new `bench:image` makes the next `up` one ReplaceJob rolling update, in
// batches of `bench:batchSize`, across `bench:instances` instances.
const pulumi = require("@pulumi/pulumi");
const { peloton } = require("clusterform");

const config = new pulumi.Config("bench");
const instances = config.getNumber("instances") ?? 10;
const batchSize = config.getNumber("batchSize") ?? 2;

const pool = new peloton.ResourcePool("compute", {
  resources: [
    { kind: "cpu", reservation: 4, limit: 100 },
    { kind: "memory", reservation: 1024, limit: 102400 },
  ],
});

const job = new peloton.StatelessJob("web", {
  respoolId: pool.id,
  instanceCount: instances,
  defaultSpec: { containers: [{ name: "web", image: config.get("image") ?? "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } }] },
  sla: { maximumUnavailableInstances: batchSize },
  updatePolicy: { batchSize },
});

exports.jobId = job.jobId;
exports.workflow = job.workflow;
