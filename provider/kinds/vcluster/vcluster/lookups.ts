import { lookupList, lookupObject, type Lookup } from "../../../core/definition/lookup";
import { optional, required, v } from "../../../core/definition/values";
import { labelsFilter, vclusterIdValue } from "../lookup-args";
import { vclusterKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);

/** `vcluster:VCluster`'s lookups: one vcluster by id (with its kubeconfig), and the vclusters of a namespace or labels. */
export const vclusterLookups: readonly Lookup[] = [
  lookupObject(vclusterKind, "vcluster", {
    description:
      "Reads a vcluster by id without managing it (found among ListVClusters, then GetVCluster with its kubeconfig): its spec as " +
      "the server reports it, labels, owner, project, phase, API server endpoint and admin kubeconfig (a secret, served while RUNNING).",
    args: { id: required(vclusterIdValue(), { description: "The vcluster's id, e.g. `vc-1700000001-1` (`getVClusters` lists them).", example: "vc-1700000001-1" }) },
    importId: (args) => String(args.id),
    key: (args) => `id ${q(args.id)}`,
  }),
  lookupList(vclusterKind, "vcluster", {
    name: "getVClusters",
    description:
      "Lists vclusters with the API's own filters (ListVClusters: namespace, label selector): each one's id, spec, labels, owner, " +
      "project and phase. The kubeconfig is `getVCluster`'s.",
    args: {
      namespace: optional(v.string(), { description: "Only vclusters of this namespace.", default: "every namespace" }),
      labels: labelsFilter("vclusters"),
    },
    items: "vclusters",
    fields: ["name", "namespace", "distro", "kubernetesVersion", "replicas", "labels", "vclusterOwner", "project", "suspended", "vclusterId", "phase", "apiServerEndpoint", "readyReplicas"],
    read: async () => (await import("./import")).listVClusters,
  }),
];
