import * as pulumi from "@pulumi/pulumi";
import { peloton } from "clusterform";

// The image, the size and the run state come from stack config, so `pulumi config set` drives changes:
//   pulumi config set image nginx:1.28    -> one ReplaceJob, rolled 2 instances at a time
//   pulumi config set instances 12        -> one ReplaceJob that adds 2 instances, the others untouched
//   pulumi config set restart 2           -> one RestartJob, in batches
//   pulumi config set state KILLED        -> StopJob; RUNNING again -> StartJob
const config = new pulumi.Config();

const pool = new peloton.ResourcePool("web-services", {
  resources: [
    { kind: "cpu", reservation: 8, limit: 16 },
    { kind: "memory", reservation: 8192, limit: 16384 },
  ],
  owningTeam: "web-platform",
  description: "Stateless web services",
});

const web = new peloton.StatelessJob("storefront", {
  respoolId: pool.id,
  instanceCount: config.getNumber("instances") ?? 10,
  defaultSpec: {
    containers: [
      {
        name: "nginx",
        image: config.get("image") ?? "nginx:1.27",
        resources: { cpu: 0.5, memoryMb: 256 },
        ports: [{ name: "http", value: 8080 }],
        environment: { LISTEN_PORT: "8080" },
        livenessCheck: { command: "curl -fs http://localhost:8080/health", intervalSecs: 10 },
      },
    ],
    killGracePeriodSeconds: 30,
  },
  sla: { priority: 1, maximumUnavailableInstances: 2 },
  labels: { app: "storefront" },
  owner: "storefront-oncall",
  owningTeam: "web-platform",
  // Never more than 2 of 10 instances down; a second failed instance rolls the update back.
  updatePolicy: { batchSize: 2, maxInstanceRetries: 2, maxTolerableInstanceFailures: 1, rollbackOnFailure: true },
  desiredState: config.get("state") ?? "RUNNING",
  restartNonce: config.get("restart"),
  timeouts: { update: "30m" },
});

export const poolId = pool.id;
export const poolPath = pool.path;
export const jobId = web.jobId;
export const jobState = web.state;
export const lastWorkflow = web.workflow;
