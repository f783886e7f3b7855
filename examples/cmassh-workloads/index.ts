import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { cmassh } from "clusterform";
import { cmassh as lookups } from "clusterform/native";

// A cluster, then what a platform team deploys on it right away. Against the local control plane,
// start it with `clusterform-local --kubernetes`: the cluster's kubeconfig then reaches a real
// kube-apiserver. That plane runs no nodes, so pods stay Pending: `pulumi config set appReplicas 0`
// lets the Deployment roll out there.
const config = new pulumi.Config();

// The newest patch of the chosen Kubernetes line the endpoint offers (a lookup, served by the native
// plugin: see Pulumi.yaml).
const line = config.get("k8sMinor") ?? "1.32";
const kubernetesVersion = lookups.getVersionsOutput({ prefix: line }).apply(({ newest, versions }) => {
  if (newest === undefined) throw new Error(`cma-ssh offers no Kubernetes ${line}.x (it offers ${versions.join(", ") || "none"}): set k8sMinor to one of those lines`);
  return newest;
});

const cluster = new cmassh.Cluster("platform", {
  kubernetesVersion,
  controlPlane: { instanceType: "standard", count: 1 },
});

// (A smoke test run against the new cluster, with @pulumi/command's `local.Command`, would belong
// here; that package's plugin cannot be built on this project's machines: the Go module proxy they
// reach refuses every version of github.com/pulumi/pulumi-command/provider, 403.)

// The kubeconfig output is secret, and stays secret in the Kubernetes provider's state.
const onCluster = new k8s.Provider("platform", { kubeconfig: cluster.kubeconfig });

const ns = new k8s.core.v1.Namespace("payments", { metadata: { name: "payments" } }, { provider: onCluster });

new k8s.core.v1.ConfigMap(
  "payments-settings",
  { metadata: { namespace: ns.metadata.name, name: "payments-settings" }, data: { cluster: cluster.name, status: cluster.status } },
  { provider: onCluster },
);

const labels = { app: "payments-api" };
new k8s.apps.v1.Deployment(
  "payments-api",
  {
    metadata: { namespace: ns.metadata.name, name: "payments-api" },
    spec: {
      replicas: config.getNumber("appReplicas") ?? 2,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: "api", image: "nginx:1.27" }] } },
    },
  },
  { provider: onCluster },
);

export const clusterName = cluster.name;
export const kubeconfig = cluster.kubeconfig;
