import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, v } from "../../../core/definition/values";
import { defineCalls, extendCalls } from "../../../core/plan/calls";
import { semver } from "../../../core/validation";
import { instanceTypeValue, objectNameValue, userLabelsValue } from "../shared-schema";

/** Control plane machine counts cma-ssh accepts (it provisions one machine today, see contracts §1.5). */
export const CONTROL_PLANE_COUNT = { min: 1, max: 9 } as const;

/**
 * The cma-ssh calls of an in-place upgrade, in the order they run: the offered versions are read
 * first, so a version not offered fails before anything changes. operations.ts has an executor for each.
 */
export const CLUSTER_UPDATE_CALLS = defineCalls("GetUpgradeClusterInformation", "UpgradeCluster");

/** Every cma-ssh call a cluster's plans name, each written once: the update's, then create's and delete's. */
export const CLUSTER_CALLS = extendCalls(CLUSTER_UPDATE_CALLS, "CreateCluster", "DeleteCluster");

/** `cmassh:Cluster`, every field written once. */
export const clusterKind = defineFields({
  type: "cmassh:Cluster",
  description:
    "A Kubernetes cluster managed by cma-ssh. Create waits until it is RUNNING; a new `kubernetesVersion` is an in-place " +
    "upgrade (GetUpgradeClusterInformation, UpgradeCluster, wait); delete waits until the platform no longer knows the cluster.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    name: optional(objectNameValue(), {
      computed: true,
      description: "The cluster name, a DNS-1123 label of at most 63 characters (cma-ssh makes a namespace of it).",
      default:
        "the resource name, `-` and a 7-character hash, stable for this stack (so an interrupted `up` adopts what it created) and new " +
        "for every replacement (so the new cluster can come up first)",
      policy: replace,
    }),
    kubernetesVersion: required(v.custom({ kind: "string" }, semver()), {
      description:
        "Kubernetes version `MAJOR.MINOR.PATCH` (a leading `v` is dropped). Raising it upgrades in place and waits for RUNNING; " +
        "a version the platform does not offer fails, listing the offered ones; lowering it fails in preview.",
      policy: inPlace(CLUSTER_CALLS.UpgradeCluster),
      example: "1.31.6",
    }),
    // The whole object is the unknown sentinel in preview when it comes from another resource's output.
    controlPlane: required(
      v.object("ControlPlane", "The control plane machines of a cluster.", {
        instanceType: required(instanceTypeValue(), { description: "Machine type.", example: "standard" }),
        count: required(v.int(CONTROL_PLANE_COUNT.min, CONTROL_PLANE_COUNT.max), {
          description: "Number of control plane machines.",
          names: { terraform: "node_count" },
        }),
        labels: optional(userLabelsValue(), {
          description: "Kubernetes labels for the machines. `clusterform.dev/owner` is reserved.",
          default: "{}",
        }),
      }),
      { description: "The control plane.", policy: replace },
    ),
  },
  outputs: {
    status: { type: { kind: "string" }, description: "PROVISIONING, RUNNING, RECONCILING, STOPPING, ERROR or DEGRADED." },
    statusMessage: { type: { kind: "string" }, description: "The platform's explanation of the status, if any." },
    kubeconfig: { type: { kind: "string" }, description: "Admin kubeconfig of the cluster.", secret: true },
  },
  timeouts: { create: "30m", update: "45m", delete: "30m" },
  deletionPolicy: true,
  importId: {
    shape: "the cluster name (a DNS-1123 label)",
    example: "prod-eu",
    unreported: ["kubernetesVersion", "controlPlane"],
  },
});

/** Validated inputs of a cma-ssh cluster. */
export type ClusterInputs = InputsOf<typeof clusterKind.inputs, typeof clusterKind.hidden>;

export const clusterSchema = clusterKind.schema;

/** How each input is changed: only the version changes in place (UpgradeCluster). */
export const clusterPolicies = clusterKind.policies;

/** Default timeouts: cma-ssh provisions machines, which takes minutes on real hardware. */
export const CLUSTER_TIMEOUTS = clusterKind.timeouts;
