import { clusterOf } from "./cluster-routes";
import { findIn, type SenlinReply, type SenlinRequest } from "./context";
import { SenlinError } from "./errors";
import { applyListQuery, type ListSpec } from "./list-query";
import type { BindingRecord, ClusterRecord } from "./records";
import { renderBinding } from "./render";
import type { SenlinStore } from "./store";

/** A binding with the names the API shows beside it. */
interface BindingRow extends BindingRecord {
  policyName: string;
  policyType: string;
}

function rowsOf(store: SenlinStore, cluster: ClusterRecord): BindingRow[] {
  return store.bindings(cluster.id).map((b) => {
    const policy = store.policies.get(b.policyId);
    return { ...b, policyName: policy?.name ?? "", policyType: policy?.type ?? "" };
  });
}

const BINDING_LIST: ListSpec<BindingRow> = {
  filters: { enabled: (b) => String(b.enabled), policy_name: (b) => b.policyName, policy_type: (b) => b.policyType },
  sortKeys: { enabled: (b) => String(b.enabled), policy_name: (b) => b.policyName, policy_type: (b) => b.policyType },
};

/** `GET /v1/clusters/{id}/policies`: the policies attached to a cluster. */
function listBindings(req: SenlinRequest): SenlinReply {
  const cluster = clusterOf(req);
  const rows = applyListQuery(req, rowsOf(req.env.store, cluster), BINDING_LIST);
  return { status: 200, body: { cluster_policies: rows.map((b) => renderBinding(b, cluster.name, b.policyName, b.policyType)) } };
}

/** `GET /v1/clusters/{id}/policies/{policy_id}`: one attachment; 404 PolicyBindingNotFound when not attached. */
function getBinding(req: SenlinRequest): SenlinReply {
  const cluster = clusterOf(req);
  const policy = findIn(req.env.store.policies, req.token.projectId, req.params.policy_id, "policy");
  const row = rowsOf(req.env.store, cluster).find((b) => b.policyId === policy.id);
  if (!row) {
    throw new SenlinError(
      "PolicyBindingNotFound",
      `The policy '${req.params.policy_id}' is not found attached to the specified cluster '${req.params.cluster_id}'.`,
    );
  }
  return { status: 200, body: { cluster_policy: renderBinding(row, cluster.name, row.policyName, row.policyType) } };
}

/** Cluster-policy binding handlers by operation name. */
export const BINDING_HANDLERS = { ListClusterPolicies: listBindings, GetClusterPolicy: getBinding } as const;
