import { z } from "zod";
import { COMMON_IGNORED, type FieldPolicy, type PolicyTable } from "../../../core/planner";
import { dnsLabel, intInRange, oneOf, orUnknown, semver } from "../../../core/validation";
import type { ResourceRequirements, VClusterSpec } from "../../../clients/vcluster/types";
import { identityFields, timeouts, type Timeouts } from "../../fields";
import { labelValue, userLabels } from "../fields";
import {
  ingressSchema,
  networkSchema,
  pluginsSchema,
  resourcesSchema,
  serviceAccountSchema,
  storageSchema,
  syncSchema,
} from "./spec-schema";

/** Distros vcluster runs. */
export const DISTROS = ["k3s", "k8s", "k0s", "eks"] as const;
/** Isolation modes vcluster offers. */
export const ISOLATION_MODES = ["full", "lite"] as const;
/** Control plane replicas: 1 is a single replica, 3 or more is highly available. */
export const REPLICAS = { min: 1, max: 9 } as const;

/** Validated inputs of a vcluster. */
export interface VClusterInputs {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  namespace: string;
  kubernetesVersion?: string;
  distro?: string;
  replicas?: number;
  enableHa?: boolean;
  resources?: ResourceRequirements;
  network?: VClusterSpec["network"];
  storage?: VClusterSpec["storage"];
  sync?: VClusterSpec["sync"];
  plugins?: VClusterSpec["plugins"];
  ingress?: VClusterSpec["ingress"];
  serviceAccount?: VClusterSpec["serviceAccount"];
  isolationMode?: string;
  helmValues?: string;
  labels?: Record<string, string>;
  /** The SDK's `owner` argument: `owner` itself is Clusterform's ownership marker. */
  vclusterOwner?: string;
  project?: string;
  suspended?: boolean;
  restoreFrom?: string;
  timeouts?: Timeouts;
}

const opt = <S extends z.ZodType>(schema: S) => orUnknown(schema).optional();

/** The vcluster schema: every input field, nested objects strict. */
export const vclusterSchema: z.ZodType<VClusterInputs, unknown> = z
  .object({
    ...identityFields(dnsLabel({ maxLength: 63 })),
    autoNamed: z.boolean().optional(),
    namespace: dnsLabel({ maxLength: 63 }),
    kubernetesVersion: semver().optional(),
    distro: oneOf(DISTROS).optional(),
    replicas: intInRange(REPLICAS.min, REPLICAS.max).optional(),
    enableHa: opt(z.boolean()),
    resources: opt(resourcesSchema),
    network: opt(networkSchema),
    storage: opt(storageSchema),
    sync: opt(syncSchema),
    plugins: opt(pluginsSchema),
    ingress: opt(ingressSchema),
    serviceAccount: opt(serviceAccountSchema),
    isolationMode: oneOf(ISOLATION_MODES).optional(),
    helmValues: opt(z.string()),
    labels: userLabels().optional(),
    vclusterOwner: labelValue("owner").optional(),
    project: labelValue().optional(),
    suspended: opt(z.boolean()),
    restoreFrom: opt(z.string().min(1)),
    timeouts: timeouts(),
  })
  .strict();

/** How one input field changes, and where an UpdateVCluster puts it. */
export interface FieldRule {
  policy: FieldPolicy;
  /** The update_mask path of an UpdateVCluster field. */
  maskPath?: string;
  /** Why, for the docs table. */
  note: string;
}

const replace = (note: string): FieldRule => ({ policy: { kind: "replace" }, note });
const scale = (note: string): FieldRule => ({ policy: { kind: "update", operation: "ScaleVCluster" }, note });
const update = (maskPath: string, note: string): FieldRule => ({ policy: { kind: "update", operation: "UpdateVCluster" }, maskPath, note });

/**
 * THE field policy table of `vcluster:VCluster` (the README's vcluster section shows the same table; a unit test
 * keeps them equal). Order here is the order fields appear in update masks.
 */
export const VCLUSTER_FIELDS: Readonly<Record<string, FieldRule>> = {
  name: replace("names the Helm release and every object of the vcluster"),
  namespace: replace("the host namespace the vcluster lives in"),
  distro: replace("a running control plane cannot switch distributions"),
  network: replace("pod and service CIDRs are fixed at creation"),
  storage: replace("etcd persistence is chosen at creation"),
  isolationMode: replace("isolation is set up at creation"),
  vclusterOwner: replace("the platform records the owner at creation only"),
  project: replace("the platform records the project at creation only"),
  kubernetesVersion: update("spec.kubernetes_version", "one UpdateVCluster with every changed spec field in its mask"),
  enableHa: update("spec.enable_ha", "same UpdateVCluster"),
  helmValues: update("spec.helm_values", "same UpdateVCluster"),
  sync: update("spec.sync", "same UpdateVCluster"),
  plugins: update("spec.plugins", "same UpdateVCluster"),
  ingress: update("spec.ingress", "same UpdateVCluster"),
  serviceAccount: update("spec.service_account", "same UpdateVCluster"),
  labels: update("labels", "same UpdateVCluster (the label map is replaced whole)"),
  replicas: scale("ScaleVCluster, then wait for RUNNING"),
  resources: scale("same ScaleVCluster"),
  suspended: { policy: { kind: "update", operation: "SuspendVCluster/ResumeVCluster" }, note: "ResumeVCluster first, SuspendVCluster last" },
  restoreFrom: { policy: { kind: "ignore" }, note: "used at creation only; later changes do nothing" },
};

/** The policy table the kit plans with, derived from {@link VCLUSTER_FIELDS}. */
export const vclusterPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  autoNamed: { kind: "ignore" },
  ...Object.fromEntries(Object.entries(VCLUSTER_FIELDS).map(([field, rule]) => [field, rule.policy])),
};

/** Inputs that force replacement, and so seed derived names. */
export function vclusterReplaceFields(inputs: Record<string, unknown>): unknown[] {
  return Object.entries(VCLUSTER_FIELDS)
    .filter(([field, rule]) => rule.policy.kind === "replace" && field !== "name")
    .map(([field]) => inputs[field]);
}

/** Default timeouts: a vcluster starts in minutes on a real host cluster. */
export const VCLUSTER_TIMEOUTS: Required<Timeouts> = { create: "20m", update: "20m", delete: "15m" };
