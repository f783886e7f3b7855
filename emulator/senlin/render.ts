import { hasFeature, type Microversion } from "./microversion";
import { type ActionRecord, type BindingRecord, type ClusterRecord, hasStarted, type NodeRecord, type PolicyRecord, type ProfileRecord } from "./records";
import type { SenlinStore } from "./store";

/** Senlin's timestamp format: ISO 8601 to the second, `Z`; null before the time is set. */
export function senlinTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Senlin sorts the keys of every object it answers. */
function sorted(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

function profileName(store: SenlinStore, id: string): string | null {
  return store.profiles.get(id)?.name ?? null;
}

/**
 * The `domain` of every object: Senlin stores the request context's domain, which a project-scoped
 * token (what every client here uses) leaves unset, so the real server answers null.
 */
const DOMAIN = null;

/** A cluster as the API shows it. */
export function renderCluster(store: SenlinStore, c: ClusterRecord): Record<string, unknown> {
  return sorted({
    config: c.config,
    created_at: senlinTime(c.createdAtMs),
    data: c.data,
    dependents: {},
    desired_capacity: c.desiredCapacity,
    domain: DOMAIN,
    id: c.id,
    init_at: senlinTime(c.initAtMs),
    max_size: c.maxSize,
    metadata: c.metadata,
    min_size: c.minSize,
    name: c.name,
    nodes: store.members(c.id).map((n) => n.id),
    // The bindings' own ids, as Senlin lists its ClusterPolicy rows here (the policies' ids are in GET /v1/clusters/{id}/policies).
    policies: store.bindings(c.id).map((b) => b.id),
    profile_id: c.profileId,
    profile_name: profileName(store, c.profileId),
    project: c.project,
    status: c.status,
    status_reason: c.statusReason,
    timeout: c.timeout,
    updated_at: senlinTime(c.updatedAtMs),
    user: c.user,
  });
}

/** A node as the API shows it; `tainted` from 1.13. */
export function renderNode(store: SenlinStore, n: NodeRecord, version: Microversion): Record<string, unknown> {
  return sorted({
    cluster_id: n.clusterId,
    created_at: senlinTime(n.createdAtMs),
    data: n.data,
    dependents: {},
    domain: DOMAIN,
    id: n.id,
    index: n.index,
    init_at: senlinTime(n.initAtMs),
    metadata: n.metadata,
    name: n.name,
    physical_id: n.physicalId,
    profile_id: n.profileId,
    profile_name: profileName(store, n.profileId),
    project: n.project,
    role: n.role,
    status: n.status,
    status_reason: n.statusReason,
    updated_at: senlinTime(n.updatedAtMs),
    user: n.user,
    ...(hasFeature(version, "nodeTainted") ? { tainted: false } : {}),
  });
}

/** A profile as the API shows it. */
export function renderProfile(p: ProfileRecord): Record<string, unknown> {
  return sorted({
    created_at: senlinTime(p.createdAtMs),
    domain: DOMAIN,
    id: p.id,
    metadata: p.metadata,
    name: p.name,
    project: p.project,
    spec: p.spec,
    type: p.type,
    updated_at: senlinTime(p.updatedAtMs),
    user: p.user,
  });
}

/** A policy as the API shows it. */
export function renderPolicy(p: PolicyRecord): Record<string, unknown> {
  return sorted({
    created_at: senlinTime(p.createdAtMs),
    data: p.data,
    domain: DOMAIN,
    id: p.id,
    name: p.name,
    project: p.project,
    spec: p.spec,
    type: p.type,
    updated_at: senlinTime(p.updatedAtMs),
    user: p.user,
  });
}

/** A cluster-policy binding as the API shows it. */
export function renderBinding(b: BindingRecord, clusterName: string, policyName: string, policyType: string): Record<string, unknown> {
  return sorted({
    cluster_id: b.clusterId,
    cluster_name: clusterName,
    data: null,
    enabled: b.enabled,
    id: b.id,
    last_op: null,
    policy_id: b.policyId,
    policy_name: policyName,
    policy_type: policyType,
    // Senlin's default binding priority; the API offers no way to set another.
    priority: 100,
  });
}

const ENDED = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** An action as the API shows it; `cluster_id` from 1.14. Start and end times are epoch seconds. */
export function renderAction(a: ActionRecord, version: Microversion): Record<string, unknown> {
  return sorted({
    action: a.action,
    cause: a.cause,
    created_at: senlinTime(a.createdAtMs),
    data: a.data ?? {},
    depended_by: a.dependedBy ?? [],
    depends_on: a.dependsOn ?? [],
    end_time: ENDED.has(a.status) ? a.endMs / 1000 : null,
    id: a.id,
    inputs: a.inputs,
    interval: -1,
    name: a.name,
    outputs: a.outputs,
    owner: null,
    project: a.project,
    start_time: hasStarted(a) ? a.startMs / 1000 : null,
    status: a.status,
    status_reason: a.statusReason,
    target: a.target,
    timeout: a.timeout,
    updated_at: senlinTime(a.updatedAtMs),
    user: a.user,
    ...(hasFeature(version, "actionClusterId") ? { cluster_id: a.clusterId } : {}),
  });
}
