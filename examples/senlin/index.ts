import * as pulumi from "@pulumi/pulumi";
import { senlin } from "clusterform";

// Credentials come from OS_CLOUD + clouds.yaml, the OS_* variables of an openrc, or stack config:
//   pulumi config set clusterform:senlinUsername ops
//   pulumi config set --secret clusterform:senlinPassword ...
//   pulumi config set clusterform:senlinProjectName web
// Sizes come from stack config, so `pulumi config set` drives the changes:
//   pulumi config set webNodes 5            -> one resize action (EXACT_CAPACITY with the bounds)
//   pulumi config set webProfile web-v2     -> one PATCH: Senlin's rolling update of the nodes
//   pulumi config set affinity false        -> one policy_update disabling the affinity policy
const config = new pulumi.Config();

const web = new senlin.Cluster("web", {
  profile: config.get("webProfile") ?? "web-v1",
  minSize: 2,
  desiredCapacity: config.getNumber("webNodes") ?? 3,
  maxSize: 10,
  metadata: { team: "storefront" },
  config: { "node.name.format": "web-$3I" },
  policies: [{ policy: "deletion-oldest-first" }, { policy: "anti-affinity", enabled: config.getBoolean("affinity") ?? true }],
  timeouts: { create: "45m", update: "1h" },
});

export const clusterId = web.id;
export const clusterName = web.name;
export const status = web.status;
export const nodeIds = web.nodeIds;
