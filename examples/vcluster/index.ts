import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { vcluster } from "clusterform";

// Against the local control plane, start it with `clusterform-local --kubernetes`: every vcluster
// then gets a real kube-apiserver, and the kubeconfig output reaches it. It runs no nodes, so pods
// stay Pending there: `pulumi config set appReplicas 0` lets the Deployment roll out.
//   pulumi config set replicas 3      -> one ScaleVCluster, in place
//   pulumi config set suspended true  -> SuspendVCluster overnight; false resumes it
//   pulumi config set k8sVersion 1.29.4 -> one UpdateVCluster, mask spec.kubernetes_version
const config = new pulumi.Config();

const dev = new vcluster.VCluster("dev", {
  namespace: "team-web",
  distro: "k3s",
  kubernetesVersion: config.get("k8sVersion") ?? "1.29.0",
  replicas: config.getNumber("replicas") ?? 1,
  resources: { cpuRequest: "500m", memoryRequest: "1Gi", memoryLimit: "2Gi" },
  network: { podCidr: "10.42.0.0/16", serviceCidr: "10.96.0.0/12" },
  sync: { syncIngresses: true },
  labels: { env: "dev" },
  owner: "web-team",
  project: "storefront",
  suspended: config.getBoolean("suspended") ?? false,
  timeouts: { create: "15m" },
});

// A snapshot to restore from: `new vcluster.VCluster("copy", { namespace, restoreFrom: nightly.snapshotId })`.
const nightly = new vcluster.Snapshot("nightly", {
  vclusterName: dev.name,
  namespace: "team-web",
  retentionHours: 72,
  description: "taken by Pulumi",
});

// The kubeconfig output is secret; the provider keeps it secret too.
const inside = new k8s.Provider("dev-vcluster", { kubeconfig: dev.kubeconfig });

const app = new k8s.core.v1.Namespace("app", { metadata: { name: "storefront" } }, { provider: inside });

new k8s.core.v1.ConfigMap(
  "settings",
  {
    metadata: { namespace: app.metadata.name, name: "storefront-settings" },
    data: { apiServer: dev.apiServerEndpoint, phase: dev.phase },
  },
  { provider: inside },
);

const labels = { app: "storefront" };
new k8s.apps.v1.Deployment(
  "storefront",
  {
    metadata: { namespace: app.metadata.name, name: "storefront" },
    spec: {
      replicas: config.getNumber("appReplicas") ?? 2,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: "web", image: "nginx:1.27" }] } },
    },
  },
  { provider: inside },
);

export const endpoint = dev.apiServerEndpoint;
export const kubeconfig = dev.kubeconfig;
export const snapshotId = nightly.snapshotId;
