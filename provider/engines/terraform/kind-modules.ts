import type { Kind } from "../../core/definition/kind";

/**
 * Each kind's definition module (under provider/kinds) and export, by Terraform type name,
 * loaded when a call names the type: tofu starts the provider several times per command, and most
 * starts answer calls about a few types (a validation, a plan) that need neither the other kinds'
 * definitions nor their zod schemas. Only GetProviderSchema loads them all.
 * kind-modules.test.ts keeps this table equal to KINDS.
 */
export const KIND_MODULES: Readonly<Record<string, { module: string; exported: string }>> = {
  clusterform_cmassh_cluster: { module: "cmassh/cluster/schema", exported: "clusterKind" },
  clusterform_cmassh_node_pool: { module: "cmassh/node-pool/schema", exported: "nodePoolKind" },
  clusterform_cyclecloud_node_pool: { module: "cyclecloud/node-pool/schema", exported: "nodePoolKind" },
  clusterform_senlin_cluster: { module: "senlin/cluster/schema", exported: "clusterKind" },
  clusterform_senlin_profile: { module: "senlin/profile/schema", exported: "profileKind" },
  clusterform_senlin_policy: { module: "senlin/policy/schema", exported: "policyKind" },
  clusterform_peloton_resource_pool: { module: "peloton/resource-pool/schema", exported: "resourcePoolKind" },
  clusterform_peloton_stateless_job: { module: "peloton/stateless-job/schema", exported: "statelessJobKind" },
  clusterform_vcluster_vcluster: { module: "vcluster/vcluster/schema", exported: "vclusterKind" },
  clusterform_vcluster_snapshot: { module: "vcluster/snapshot/schema", exported: "snapshotKind" },
};

/** Every type this release serves, without loading a definition. */
export const TYPE_NAMES: readonly string[] = Object.keys(KIND_MODULES);

/** The definition of one type, or undefined for a type this release does not serve. */
export function loadKind(typeName: string): Kind | undefined {
  if (!Object.hasOwn(KIND_MODULES, typeName)) return undefined;
  const { module, exported } = KIND_MODULES[typeName];
  return require(`../../kinds/${module}`)[exported] as Kind;
}
