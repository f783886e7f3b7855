import { randomUUID } from "node:crypto";
import { type ActionRecord, DERIVED_CAUSE, type NodeRecord, type PolicyRecord } from "./records";
import type { SenlinStore } from "./store";

/**
 * Senlin's rolling update: a CLUSTER_UPDATE that changes the profile updates the member nodes
 * through derived NODE_UPDATE actions, one batch after another (the engine's `_update_nodes`).
 * Without an enabled `senlin.policy.batch` binding all nodes form one batch with no pause; with
 * one, the policy's `pre_op` plans the batches and the pause between them (`batch_policy.py`).
 */

/** The batch policy's properties and their defaults (its `properties_schema`). */
export interface BatchProperties {
  minInService: number;
  /** -1 means no limit. */
  maxBatchSize: number;
  /** Seconds slept after each batch. */
  pauseTime: number;
}

const BATCH_DEFAULTS: BatchProperties = { minInService: 1, maxBatchSize: -1, pauseTime: 60 };

/** The batch schema's property names, with the field each fills. */
const BATCH_KEYS: Readonly<Record<string, keyof BatchProperties>> = {
  min_in_service: "minInService",
  max_batch_size: "maxBatchSize",
  pause_time: "pauseTime",
};

/** A batch policy's properties with its defaults filled in (Senlin's Integer schema also takes "3"). */
export function batchProperties(policy: PolicyRecord): BatchProperties {
  const given = (policy.spec.properties ?? {}) as Record<string, unknown>;
  const props = { ...BATCH_DEFAULTS };
  for (const [key, field] of Object.entries(BATCH_KEYS)) {
    const value = Number(given[key]);
    if (given[key] !== undefined && given[key] !== null && Number.isInteger(value)) props[field] = value;
  }
  return props;
}

/** The enabled batch policy attached to a cluster, if any (disabled bindings are skipped, as the engine's policy check does). */
export function attachedBatchPolicy(store: SenlinStore, clusterId: string): PolicyRecord | undefined {
  return store
    .bindings(clusterId)
    .filter((b) => b.enabled)
    .map((b) => store.policies.get(b.policyId))
    .find((p) => p?.type.startsWith("senlin.policy.batch-"));
}

/**
 * The batch size for `total` nodes (`_cal_batch_size` for CLUSTER_UPDATE): everything above
 * `min_in_service` at once (half, rounded up, when there are not more nodes than that), capped
 * by `max_batch_size`. Senlin divides by the result; a zero here is taken as one.
 */
export function batchSize(total: number, props: BatchProperties): number {
  const diff = total > props.minInService ? total - props.minInService : Math.ceil(total / 2);
  const size = props.maxBatchSize === -1 || diff < props.maxBatchSize ? diff : props.maxBatchSize;
  return Math.max(1, size);
}

/** Bad nodes (ERROR or WARNING, then never created) go first, healthy ones last, as `filter_error_nodes` orders them. */
function candidates(members: readonly NodeRecord[]): string[] {
  const bad = members.filter((n) => n.status === "ERROR" || n.status === "WARNING");
  const uncreated = members.filter((n) => !bad.includes(n) && n.createdAtMs === null);
  const good = members.filter((n) => !bad.includes(n) && !uncreated.includes(n));
  return [...bad, ...uncreated, ...good].map((n) => n.id);
}

/** The update plan: node ids per batch and the pause after each, in seconds. */
export interface UpdatePlan {
  batches: string[][];
  pauseTime: number;
}

/** Plans a profile update of a cluster's members, with or without a batch policy. */
export function planUpdate(members: readonly NodeRecord[], policy: PolicyRecord | undefined): UpdatePlan {
  if (!policy) return { batches: members.length > 0 ? [members.map((n) => n.id)] : [], pauseTime: 0 };
  const props = batchProperties(policy);
  const ids = candidates(members);
  const size = batchSize(ids.length, props);
  const batches = Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));
  return { batches, pauseTime: props.pauseTime };
}

/**
 * Starts a rolling update: queues one derived NODE_UPDATE per member, batch after batch (each
 * batch starts when the previous one ended and its pause passed), records the plan in the
 * action's `data` as the batch policy does, and moves the cluster action's end after the last batch.
 */
export function startRollingUpdate(store: SenlinStore, action: ActionRecord, atMs: number): void {
  const profileId = action.plan.changes?.profileId;
  if (!profileId || action.inputs.profile_only === true) return;
  const policy = attachedBatchPolicy(store, action.clusterId);
  const plan = planUpdate(store.members(action.clusterId), policy);
  const stepMs = action.plan.nodeUpdateMs ?? 0;
  const pauseMs = Math.round(plan.pauseTime * 1000 * (action.plan.timeScale ?? 1));
  const children: string[] = [];
  let batchStart = atMs;
  let lastEnd = atMs;
  for (const batch of plan.batches) {
    for (const nodeId of batch) {
      const child: ActionRecord = {
        user: action.user,
        project: action.project,
        domain: action.domain,
        id: randomUUID(),
        name: `node_update_${nodeId.slice(0, 8)}`,
        action: "NODE_UPDATE",
        target: nodeId,
        clusterId: action.clusterId,
        cause: DERIVED_CAUSE,
        status: "READY",
        statusReason: "",
        inputs: { new_profile_id: profileId },
        outputs: {},
        timeout: action.timeout,
        plan: { changes: { profileId } },
        createdAtMs: atMs,
        startMs: batchStart,
        endMs: batchStart + stepMs,
        updatedAtMs: null,
        dependedBy: [action.id],
      };
      store.actions.insert(child);
      children.push(child.id);
    }
    lastEnd = batchStart + stepMs;
    batchStart = lastEnd + pauseMs;
  }
  const data = policy
    ? { status: "OK", reason: "Batching request validated.", update: { pause_time: plan.pauseTime, plan: plan.batches } }
    : undefined;
  // The cluster action ends after its last batch's pause, and strictly after the last node action,
  // so the settling loop applies the nodes' ends first.
  const endMs = plan.batches.length > 0 ? Math.max(batchStart, lastEnd + 1) : action.endMs;
  // The batch policy's check stores the action with the binding's `last_op` among its inputs (null: never set here).
  store.actions.update(action.id, (a) => ({
    ...a,
    endMs,
    plan: { ...a.plan, children },
    dependsOn: children,
    ...(data ? { data, inputs: { ...a.inputs, last_op: null } } : {}),
  }));
}

/** Why a rolling update failed, if one of its node updates did. */
export function rollingUpdateFailure(store: SenlinStore, action: ActionRecord): string | undefined {
  const children = store.actions.get(action.id)?.plan.children ?? [];
  return children.some((id) => store.actions.get(id)?.status === "FAILED") ? "Failed in updating nodes." : undefined;
}
