import { z } from "zod";
import type { FieldPolicy } from "../../../core/planner";
import { dnsLabel, orUnknown, semver } from "../../../core/validation";
import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP, type Timeouts } from "../../../core/definition/kind";
import { ignored, inPlace, optional, replace, required, type Value, v } from "../../../core/definition/values";
import { defineCalls, eitherOf, extendCalls } from "../../../core/plan/calls";
import { labelValue, userLabelsValue } from "../fields";
import { drainTimeoutProblem, type SuspendOptions, suspendOptionsSpec } from "./suspend-options";
import { ingressSpec, networkSpec, pluginSpec, pluginsSchema, resourcesSpec, serviceAccountSpec, storageSpec, syncSpec } from "./spec-schema";

/** Default timeouts: a vcluster starts in minutes on a real host cluster. */
const VCLUSTER_TIMEOUT_DEFAULTS = { create: "20m", update: "20m", delete: "15m" };

/** Distros vcluster runs. */
export const DISTROS = ["k3s", "k8s", "k0s", "eks"] as const;
/** Isolation modes vcluster offers. */
export const ISOLATION_MODES = ["full", "lite"] as const;
/** Control plane replicas: 1 is a single replica, 3 or more is highly available. */
export const REPLICAS = { min: 1, max: 9 } as const;

const dnsName = (): Value<string> => ({ type: { kind: "string" }, validate: dnsLabel({ maxLength: 63 }) });
const label = (argument?: string): Value<string> => ({ type: { kind: "string" }, validate: labelValue(argument) });
/**
 * The vcluster calls an in-place update makes, in the order the phase rules allow (steps.ts):
 * resume, update, scale, suspend. operations.ts carries out each, then waits for its phase.
 */
export const VCLUSTER_UPDATE_CALLS = defineCalls("ResumeVCluster", "UpdateVCluster", "ScaleVCluster", "SuspendVCluster");

/** Every vcluster call a VCluster's plans name, each written once: the update's, then create's and delete's. */
export const VCLUSTER_CALLS = extendCalls(VCLUSTER_UPDATE_CALLS, "CreateVCluster", "RestoreVCluster", "DeleteVCluster");

const UPDATE = inPlace(VCLUSTER_CALLS.UpdateVCluster);
const SCALE = inPlace(VCLUSTER_CALLS.ScaleVCluster);

/** Where UpdateVCluster puts each field it changes. */
const MASK_PATHS = {
  kubernetesVersion: "spec.kubernetes_version",
  enableHa: "spec.enable_ha",
  helmValues: "spec.helm_values",
  sync: "spec.sync",
  plugins: "spec.plugins",
  ingress: "spec.ingress",
  serviceAccount: "spec.service_account",
  labels: "labels",
} as const satisfies Readonly<Record<string, string>>;

/** The note of an UpdateVCluster field: the mask path it goes in, from {@link MASK_PATHS}. */
const updateNote = (field: keyof typeof MASK_PATHS, extra = ""): string =>
  `one UpdateVCluster with every changed spec field, mask \`${MASK_PATHS[field]}\`${extra}`;

/** `vcluster:VCluster`, every field written once, in the order fields appear in update masks. */
export const vclusterKind = defineFields({
  type: "vcluster:VCluster",
  description:
    "A virtual Kubernetes cluster. Create waits for RUNNING; changes run in place in the order the phase rules allow " +
    "(resume, update, scale, suspend), each waiting for the vcluster to settle, with WatchVCluster (falling back to polling " +
    "when the stream breaks).",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    name: optional(dnsName(), {
      computed: true,
      description: "The vcluster name, a DNS-1123 label of at most 63 characters.",
      default: "the resource name, `-` and a 7-character hash, stable for this stack",
      policy: replace,
      note: "names the Helm release and every object of the vcluster",
    }),
    namespace: required(dnsName(), {
      description: "The host namespace, a DNS-1123 label (required: servers default it inconsistently).",
      policy: replace,
      note: "the host namespace the vcluster lives in",
    }),
    distro: optional(v.oneOf(DISTROS), {
      description: "`k3s`, `k8s`, `k0s` or `eks`.",
      default: '"k3s" (server)',
      serverDefault: true,
      policy: replace,
      note: "a running control plane cannot switch distributions",
    }),
    network: optional(networkSpec, { description: "CIDRs and DNS.", default: "none", policy: replace, note: "pod and service CIDRs are fixed at creation" }),
    storage: optional(storageSpec, { description: "etcd persistence.", default: "none", policy: replace, note: "etcd persistence is chosen at creation" }),
    isolationMode: optional(v.oneOf(ISOLATION_MODES), {
      description: "`full` or `lite`.",
      default: '"" (server)',
      serverDefault: true,
      policy: replace,
      note: "isolation is set up at creation",
    }),
    vclusterOwner: optional(label("owner"), {
      description: "The vcluster's owner (a label value; sent as the label `owner`).",
      default: "none",
      policy: replace,
      note: "the platform records the owner at creation only",
      names: { pulumi: "owner", terraform: "vcluster_owner" },
    }),
    project: optional(label(), {
      description: "The vcluster's project (a label value; sent as the label `project`).",
      default: "none",
      policy: replace,
      note: "the platform records the project at creation only",
    }),
    kubernetesVersion: optional(v.custom({ kind: "string" }, semver()), {
      description: "Kubernetes version `MAJOR.MINOR.PATCH` (a leading `v` is dropped).",
      default: '"1.28.0" (server)',
      serverDefault: true,
      policy: UPDATE,
      note: updateNote("kubernetesVersion"),
    }),
    enableHa: optional(v.boolean(), { description: "High availability.", default: "false", policy: UPDATE, note: updateNote("enableHa") }),
    helmValues: optional(v.string(), { description: "Extra Helm values (YAML).", default: '""', policy: UPDATE, note: updateNote("helmValues") }),
    sync: optional(syncSpec, { description: "Host resources synced into the vcluster.", default: "none", policy: UPDATE, note: updateNote("sync") }),
    plugins: optional(v.custom({ kind: "list", of: pluginSpec.type }, pluginsSchema), {
      description: "Plugins, unique by name.",
      default: "[]",
      policy: UPDATE,
      note: updateNote("plugins"),
    }),
    ingress: optional(ingressSpec, { description: "API server ingress.", default: "none", policy: UPDATE, note: updateNote("ingress") }),
    serviceAccount: optional(serviceAccountSpec, {
      description: "The control plane's service account.",
      default: "none",
      policy: UPDATE,
      note: updateNote("serviceAccount"),
    }),
    labels: optional(userLabelsValue(), {
      description: "Kubernetes labels; `owner`, `project` and `clusterform.dev/owner` are reserved.",
      default: "{}",
      policy: UPDATE,
      note: updateNote("labels", " (the label map is replaced whole)"),
    }),
    replicas: optional(v.int(REPLICAS.min, REPLICAS.max), {
      description: "Control plane replicas; 3 or more is highly available.",
      default: "1",
      serverDefault: true,
      policy: SCALE,
      note: "one ScaleVCluster with `resources`, then a wait for RUNNING",
    }),
    resources: optional(resourcesSpec, {
      description: 'Control plane requests and limits (quantities such as `"500m"`, `"1Gi"`).',
      default: "none",
      policy: SCALE,
      note: "one ScaleVCluster with `replicas`, then a wait for RUNNING",
    }),
    suspended: optional(v.boolean(), {
      description: "Paused: SuspendVCluster when set, ResumeVCluster when cleared.",
      default: "false",
      policy: inPlace(eitherOf(VCLUSTER_CALLS.SuspendVCluster, VCLUSTER_CALLS.ResumeVCluster)),
      note: "with other changes in one `up`, ResumeVCluster runs first and SuspendVCluster last",
    }),
    suspendOptions: optional(suspendOptionsSpec, {
      description:
        "How a suspend is done: drain the workloads first (with a time limit) and take a snapshot. Sent with every " +
        "SuspendVCluster the provider makes, including the one that suspends a vcluster created with `suspended: true`.",
      default: "none: the control plane stops at once, without a snapshot",
      policy: ignored,
      note: "shapes the next SuspendVCluster only; changing it alone calls nothing",
    }),
    restoreFrom: optional(v.custom({ kind: "string" }, orUnknown(z.string().min(1))), {
      description: "A snapshot id (`snapshot.snapshotId`) to create the vcluster from (RestoreVCluster into a new vcluster).",
      default: "none",
      policy: ignored,
      note: "used at creation only; later changes do nothing",
    }),
  },
  outputs: {
    vclusterId: { type: { kind: "string" }, description: "The platform's id, e.g. `vc-1700000000-1`." },
    phase: { type: { kind: "string" }, description: "RUNNING or SUSPENDED after a successful up; CREATING, SCALING, ... while changing." },
    apiServerEndpoint: { type: { kind: "string" }, description: "The API server URL, e.g. `https://dev.team-a.svc:443`." },
    kubeconfig: {
      type: { kind: "string" },
      description: "Admin kubeconfig (YAML). The platform serves kubeconfigs only while RUNNING, so a suspended vcluster keeps the last one seen.",
      secret: true,
    },
    readyReplicas: { type: { kind: "integer" }, description: "Ready control plane replicas (0 while suspended)." },
    helmRelease: {
      type: {
        kind: "object",
        name: "HelmRelease",
        description: "The Helm release a vcluster runs as.",
        fields: {
          name: required(v.string(), { description: "Release name." }),
          chartVersion: required(v.string(), { description: "Chart version." }),
          appVersion: required(v.string(), { description: "App version." }),
          status: required(v.string(), { description: "Release status." }),
          revision: required(v.int(0, 2_147_483_647), { description: "Release revision." }),
        },
      },
      description: "The Helm release behind the vcluster.",
    },
    conditions: {
      type: {
        kind: "list",
        of: {
          kind: "object",
          name: "Condition",
          description: "One condition of a vcluster's status.",
          fields: {
            type: required(v.string(), { description: "Condition type, e.g. Ready." }),
            status: required(v.string(), { description: "True, False or Unknown." }),
            reason: required(v.string(), { description: "Machine-readable reason." }),
            message: required(v.string(), { description: "Human-readable message." }),
          },
        },
      },
      description: "The status conditions, e.g. Ready=True.",
    },
  },
  refine: (inputs, ctx) => {
    // `timeouts` is every kind's input (definition/kind.ts), validated with the rest.
    const { timeouts } = inputs as { timeouts?: Timeouts };
    const problem = drainTimeoutProblem(inputs.suspendOptions as SuspendOptions | undefined, timeouts, VCLUSTER_TIMEOUT_DEFAULTS);
    if (problem) ctx.addIssue({ code: "custom", path: ["suspendOptions", "drainTimeout"], message: problem, input: inputs.suspendOptions?.drainTimeout });
  },
  timeouts: VCLUSTER_TIMEOUT_DEFAULTS,
  deletionPolicy: true,
  importId: {
    shape: "the vcluster id the platform reports (e.g. GetVCluster's `id`)",
    example: "vc-1700000001-1",
    unreported: ["restoreFrom", "suspendOptions"],
  },
});

/** Validated inputs of a vcluster. */
export type VClusterInputs = InputsOf<typeof vclusterKind.inputs, typeof vclusterKind.hidden>;

/** The vcluster schema: every input field, nested objects strict. */
export const vclusterSchema = vclusterKind.schema;

/** How one input field changes, and where an UpdateVCluster puts it. */
export interface FieldRule {
  policy: FieldPolicy;
  /** The update_mask path of an UpdateVCluster field. */
  maskPath?: string;
  /** Why, for the docs table. */
  note: string;
}

/**
 * The field policy table of `vcluster:VCluster`, from the definition; its reference page
 * (docs/reference/vcluster-vcluster.md) shows each rule in the inputs' "on change" column (a unit test keeps them equal). Order here is the order fields appear in update masks.
 */
export const VCLUSTER_FIELDS: Readonly<Record<string, FieldRule>> = Object.fromEntries(
  Object.entries(vclusterKind.inputs).map(([field, f]) => [field, { policy: f.policy as FieldPolicy, maskPath: (MASK_PATHS as Readonly<Record<string, string>>)[field], note: f.note ?? "" }]),
);

/** The policy table the core plans with, derived from the definition. */
export const vclusterPolicies = vclusterKind.policies;

/** Default timeouts: a vcluster starts in minutes on a real host cluster. */
export const VCLUSTER_TIMEOUTS = vclusterKind.timeouts;
