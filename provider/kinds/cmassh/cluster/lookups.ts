import { lookupList, lookupObject, type Lookup, resultField } from "../../../core/definition/lookup";
import { optional, required, v } from "../../../core/definition/values";
import { versionPrefix } from "../../../core/validation";
import { objectNameValue } from "../shared-schema";
import { clusterKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);
const reads = () => import("./import");

const versionList = resultField({ kind: "list", of: { kind: "string" } }, "The versions, oldest first (`MAJOR.MINOR.PATCH`).");
const newest = resultField({ kind: "string" }, "The newest of `versions`; absent when the platform offers none.", { optional: true });

/** `cmassh:Cluster`'s lookups: one cluster by name (with its kubeconfig), every cluster, and the versions the platform offers. */
export const clusterLookups: readonly Lookup[] = [
  lookupObject(clusterKind, "cmassh", {
    description:
      "Reads a cma-ssh cluster by name without managing it: its status and admin kubeconfig (a secret). cma-ssh's GetCluster " +
      "reports neither the Kubernetes version nor the control plane, so the result has neither.",
    args: { name: required(objectNameValue(), { description: "The cluster's name." }) },
    importId: (args) => String(args.name),
    key: (args) => `name ${q(args.name)}`,
  }),
  lookupList(clusterKind, "cmassh", {
    name: "getClusters",
    description: "Lists every cluster of the cma-ssh endpoint (GetClusterList): name and status. The kubeconfig is `getCluster`'s.",
    args: {},
    items: "clusters",
    fields: ["name", "status", "statusMessage"],
    read: async () => (await reads()).listClusters,
  }),
  {
    form: "read",
    name: "getVersions",
    description:
      "The Kubernetes versions the cma-ssh endpoint offers a new cluster (GetUpgradeClusterInformation without a cluster name), " +
      "oldest first, and the newest of them: pick one for `kubernetesVersion` instead of writing it down. With `prefix`, only " +
      "the versions of that line: the newest patch of the minor version you chose.",
    platform: "cmassh",
    args: {
      prefix: optional(v.custom({ kind: "string" }, versionPrefix()), {
        description:
          "Only the versions that start with these whole components: `1.31` (or `1.31.x`) keeps 1.31.x, not 1.310; `1` keeps every 1.x. " +
          "A program that takes `newest` of a prefix gets patch upgrades as the platform offers them, never a new minor version.",
        default: "every version offered",
        example: "1.31",
      }),
    },
    result: { versions: versionList, newest },
    read: async () => (await reads()).offeredVersions,
  },
  {
    form: "read",
    name: "getClusterUpgrades",
    description:
      "The Kubernetes versions a cluster may be upgraded to (GetUpgradeClusterInformation), oldest first, and the newest: a " +
      "`kubernetesVersion` outside them fails.",
    platform: "cmassh",
    args: { name: required(objectNameValue(), { description: "The cluster's name." }) },
    result: { name: resultField({ kind: "string" }, "The cluster's name."), versions: versionList, newest },
    key: (args) => `name ${q(args.name)}`,
    read: async () => (await reads()).clusterUpgrades,
  },
];
