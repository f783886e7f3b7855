import * as pulumi from "@pulumi/pulumi";
import { senlin } from "clusterform";

// Credentials come from OS_CLOUD + clouds.yaml, the OS_* variables of an openrc, or stack config:
//   pulumi config set clusterform:senlinUsername ops
//   pulumi config set --secret clusterform:senlinPassword ...
//   pulumi config set clusterform:senlinProjectName web
// Everything the web tier needs is declared here: its profile, its policies and the cluster, which
// refers to them by id. Changes come from stack config, so `pulumi config set` drives them:
//   pulumi config set webNodes 5             -> one resize action (EXACT_CAPACITY with the bounds)
//   pulumi config set webImage debian-12.8   -> a new profile, created first; the cluster switches
//                                               to it with Senlin's rolling update (two nodes at a
//                                               time, as the batch policy says); the old profile goes last
//   pulumi config set affinity false         -> one policy_update disabling the affinity policy
const config = new pulumi.Config();

const webServer = new senlin.Profile("web-server", {
  spec: {
    type: "os.nova.server",
    version: "1.0",
    properties: { flavor: "m1.small", image: config.get("webImage") ?? "debian-12", networks: [{ network: "web-net" }] },
  },
  metadata: { team: "storefront" },
});

const oldestFirst = new senlin.Policy("deletion-oldest-first", {
  spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST", destroy_after_deletion: true } },
});
const antiAffinity = new senlin.Policy("anti-affinity", {
  spec: { type: "senlin.policy.affinity", version: "1.0", properties: { servergroup: { policies: "anti-affinity" } } },
});
// A rolling update replaces at most two nodes at a time and keeps at least two in service.
const rolling = new senlin.Policy("rolling-update", {
  spec: { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 2, max_batch_size: 2, pause_time: 30 } },
});

const web = new senlin.Cluster("web", {
  profile: webServer.id,
  minSize: 2,
  desiredCapacity: config.getNumber("webNodes") ?? 3,
  maxSize: 10,
  metadata: { team: "storefront" },
  config: { "node.name.format": "web-$3I" },
  policies: [
    { policy: oldestFirst.id },
    { policy: antiAffinity.id, enabled: config.getBoolean("affinity") ?? true },
    { policy: rolling.id },
  ],
  timeouts: { create: "45m", update: "1h" },
});

export const clusterId = web.id;
export const clusterName = web.name;
export const status = web.status;
export const nodeIds = web.nodeIds;
export const profileName = webServer.name;
