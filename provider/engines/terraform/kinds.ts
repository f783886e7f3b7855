/**
 * The eight resource kinds as Terraform resource types, and where each one's definition lives.
 * Provisional: until every field is defined once (type, bounds, description, engine names), the
 * Terraform schema is derived from each kind's zod schema and field-policy table (see schema.ts),
 * and the outputs the Pulumi SDK classes declare are listed here.
 */
export interface KindEntry {
  /** The handler's type in provider/registry.ts. */
  handlerType: string;
  /** Loads the kind's definition module and picks the zod schema and the policy table from it. */
  load: () => { schema: unknown; policies: Record<string, { kind: string; operation?: string }> };
  /** Outputs beyond the inputs (the SDK class's outputs), camelCase. */
  outputs: readonly string[];
  /** Outputs that are secrets: sensitive in Terraform, never written to the provider's private state. */
  secrets?: readonly string[];
}

const res = "../../resources";

/** Terraform type name to kind. Modules load only when a schema is built. */
export const KINDS: Readonly<Record<string, KindEntry>> = {
  clusterform_cmassh_cluster: {
    handlerType: "cmassh:Cluster",
    load: () => pick(require(`${res}/cmassh/cluster/schema`), "clusterSchema", "clusterPolicies"),
    outputs: ["status", "statusMessage", "kubeconfig"],
    secrets: ["kubeconfig"],
  },
  clusterform_cmassh_node_pool: {
    handlerType: "cmassh:NodePool",
    load: () => pick(require(`${res}/cmassh/node-pool/schema`), "nodePoolSchema", "nodePoolPolicies"),
    outputs: ["clusterStatus"],
  },
  clusterform_cyclecloud_node_pool: {
    handlerType: "cyclecloud:NodePool",
    load: () => pick(require(`${res}/cyclecloud/node-pool/schema`), "nodePoolSchema", "nodePoolPolicies"),
    outputs: ["nodeIds", "nodeNames", "readyCount", "lastOperationId", "coresPerNode"],
  },
  clusterform_senlin_cluster: {
    handlerType: "senlin:Cluster",
    load: () => pick(require(`${res}/senlin/cluster/schema`), "clusterSchema", "clusterPolicies"),
    outputs: ["status", "statusReason", "nodeIds", "profileName"],
  },
  clusterform_peloton_resource_pool: {
    handlerType: "peloton:ResourcePool",
    load: () => pick(require(`${res}/peloton/resource-pool/schema`), "resourcePoolSchema", "resourcePoolPolicies"),
    outputs: ["respoolId", "path", "parentId", "usages"],
  },
  clusterform_peloton_stateless_job: {
    handlerType: "peloton:StatelessJob",
    load: () => pick(require(`${res}/peloton/stateless-job/schema`), "statelessJobSchema", "statelessJobPolicies"),
    outputs: ["jobId", "version", "state", "podStats", "workflow"],
  },
  clusterform_vcluster_vcluster: {
    handlerType: "vcluster:VCluster",
    load: () => pick(require(`${res}/vcluster/vcluster/schema`), "vclusterSchema", "vclusterPolicies"),
    outputs: ["vclusterId", "phase", "apiServerEndpoint", "kubeconfig", "readyReplicas", "helmRelease", "conditions"],
    secrets: ["kubeconfig"],
  },
  clusterform_vcluster_snapshot: {
    handlerType: "vcluster:Snapshot",
    load: () => pick(require(`${res}/vcluster/snapshot/schema`), "snapshotSchema", "snapshotPolicies"),
    outputs: ["snapshotId", "status", "vclusterId", "sizeBytes", "storageUri", "expireTime"],
  },
};

function pick(module: Record<string, unknown>, schema: string, policies: string): ReturnType<KindEntry["load"]> {
  return { schema: module[schema], policies: module[policies] as ReturnType<KindEntry["load"]>["policies"] };
}
