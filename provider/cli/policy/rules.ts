import { deletionPolicyOf } from "../../core/deletion";
import { isUnknown } from "../../core/unknown";
import type { PlannedOperation } from "../../core/plan/operation";
import { knownNumber, type PolicyChange, type PolicyResource } from "./change";

type Props = Record<string, unknown>;

/** The kinds the replacement rule guards unless its config names others: the clusters. */
export const CLUSTER_KINDS = ["cmassh:Cluster", "senlin:Cluster", "vcluster:VCluster"] as const;

/** Config of `clusterform-cluster-replacement`. */
export interface ReplacementConfig {
  /** Kinds guarded. @default {@link CLUSTER_KINDS} */
  kinds?: string[];
  /** Resource names (or URNs) that may be replaced or deleted; `"*"` allows every one. @default [] */
  allow?: string[];
}

/** Config of `clusterform-max-scale-down`. */
export interface ScaleDownConfig {
  /** Most instances or nodes one resource's change may remove. @default 2 */
  maxRemoved?: number;
}

/** Config of `clusterform-rolling-update-batch-size`. */
export interface BatchConfig {
  /** Fewest batches a job's rolling update may take (2: the batch size is below the job's size). @default 2 */
  minBatches?: number;
}

/** Config of `clusterform-version-offered`. */
export interface VersionConfig {
  /** The versions the platform offers, per kind (`cmassh:Cluster`, `vcluster:VCluster`). @default {} (not known: no verdict) */
  offered?: Record<string, string[]>;
}

/** Defaults of every rule's config, as the docs and the pack's config schema state them. */
export const DEFAULTS = { maxRemoved: 2, minBatches: 2 } as const;

/** A rule's verdict on one resource: the reasons it is refused, empty when it passes. */
export type Verdict = string[];

function allowed(resource: Pick<PolicyResource, "name" | "urn">, allow: readonly string[]): boolean {
  return allow.includes("*") || allow.includes(resource.name) || allow.includes(resource.urn);
}

/**
 * No replacement or deletion of a guarded kind unless the config allows the resource. The
 * replacement's order comes from the planners (delete first drops the cluster before its successor runs).
 */
export function checkReplacement(resource: PolicyResource, change: PolicyChange, config: ReplacementConfig, policy = "clusterform-cluster-replacement"): Verdict {
  if (change.op === "delete") {
    // The object's own deletionPolicy (core/deletion.ts) comes first: an abandoned one is not
    // deleted, a protected one fails its delete, which the pack says at preview (the engine does not
    // ask the provider about a delete before it runs it).
    const own = deletionPolicyOf(resource.olds ?? {});
    if (own === "abandon") return [];
    if (own === "protect") {
      return [`${change.kind} ${resource.name} is protected (deletionPolicy "protect"): its delete would fail; set deletionPolicy to "delete" and run that update first`];
    }
  }
  const kinds = config.kinds ?? [...CLUSTER_KINDS];
  if (!kinds.includes(change.kind) || allowed(resource, config.allow ?? [])) return [];
  const how = `add its name to the config value "allow" of ${policy} to let it happen`;
  if (change.op === "delete") return [`${change.kind} ${resource.name} would be deleted (${summaries(change.plan.operations)}); ${how}`];
  if (change.op !== "replace") return [];
  const order = change.plan.order === "create-first" ? "the new one is created first" : "the old one is deleted first";
  return [`${change.kind} ${resource.name} would be replaced because ${(change.plan.replaces ?? []).join(", ")} changed; ${order}; ${how}`];
}

/**
 * How many instances or nodes one planned call takes away, from its arguments and the old state;
 * undefined when not known before the `up` (a size from another resource's output).
 */
const REMOVED_BY: Readonly<Record<string, (op: PlannedOperation, olds: Props) => number | undefined>> = {
  ScaleNodePool: (op, olds) => difference(olds.count, op.args.count),
  RemoveNodes: (op) => (Array.isArray(op.args.names) ? op.args.names.length : undefined),
  ResizeCluster: (op, olds) => difference(olds.desiredCapacity, op.args.number),
  ReplaceJob: (op, olds) => difference(olds.instanceCount, op.args.instanceCount),
  StopJob: (_op, olds) => knownNumber(olds.instanceCount),
};

function difference(from: unknown, to: unknown): number | undefined {
  const [a, b] = [knownNumber(from), knownNumber(to)];
  return a === undefined || b === undefined ? undefined : Math.max(0, a - b);
}

/** The instances or nodes an in-place change removes (the planners' calls flagged `capacity-removed`). */
export function removedBy(change: PolicyChange, olds: Props): number {
  if (change.op !== "update") return 0;
  let removed = 0;
  for (const op of change.plan.operations) {
    if (!op.disruptions?.includes("capacity-removed")) continue;
    removed += REMOVED_BY[op.call]?.(op, olds) ?? 0;
  }
  return removed;
}

/** At most `maxRemoved` instances or nodes removed by one resource's in-place change. */
export function checkScaleDown(resource: PolicyResource, change: PolicyChange, config: ScaleDownConfig): Verdict {
  const max = config.maxRemoved ?? DEFAULTS.maxRemoved;
  const removed = removedBy(change, resource.olds ?? {});
  if (removed <= max) return [];
  const what = change.plan.operations.filter((op) => op.disruptions?.includes("capacity-removed")).map((op) => op.summary);
  return [`${change.kind} ${resource.name} would remove ${removed} instance(s) or node(s) in one change (${what.join("; ")}); at most ${max} allowed (config value "maxRemoved")`];
}

/**
 * A Peloton job's rolling updates take at least `minBatches` batches: `updatePolicy.batchSize`
 * (Peloton's default 1) below the job's `instanceCount`. A job of one instance cannot roll in
 * smaller batches and passes; values unknown at preview pass too.
 */
export function checkBatchSize(resource: PolicyResource, change: PolicyChange, config: BatchConfig): Verdict {
  if (change.kind !== "peloton:StatelessJob" || !resource.news) return [];
  const min = config.minBatches ?? DEFAULTS.minBatches;
  const count = knownNumber(resource.news.instanceCount);
  const policy = resource.news.updatePolicy as { batchSize?: unknown } | undefined;
  const batch = policy?.batchSize === undefined ? 1 : knownNumber(policy.batchSize);
  if (count === undefined || batch === undefined || count <= 1) return [];
  const batches = Math.ceil(count / batch);
  if (batches >= min) return [];
  const most = Math.max(1, Math.floor(count / min));
  return [`peloton:StatelessJob ${resource.name} rolls ${count} instance(s) in batches of ${batch} (${batches} batch(es)); at least ${min} required (config value "minBatches"): set updatePolicy.batchSize to ${most} or less`];
}

/**
 * The version a planned call moves to: an upgrade's target, a create's version. Only the planners'
 * calls say which calls set a version.
 */
function versionOf(op: PlannedOperation, news: Props): unknown {
  if (op.args.to !== undefined) return op.args.to;
  if (op.args.kubernetesVersion !== undefined) return op.args.kubernetesVersion;
  return op.disruptions?.includes("upgrade") ? news.kubernetesVersion : undefined;
}

/**
 * A version that a create or an upgrade sets is one the platform offers. Known only where the config
 * lists the offered versions of the kind: the state holds no such list, and a policy never calls the
 * platform (cma-ssh's update still asks GetUpgradeClusterInformation itself before it upgrades).
 */
export function checkVersion(resource: PolicyResource, change: PolicyChange, config: VersionConfig): Verdict {
  const offered = config.offered?.[change.kind];
  if (!offered || !resource.news) return [];
  const news = resource.news;
  const wanted = change.plan.operations.map((op) => versionOf(op, news)).filter((v): v is string => typeof v === "string" && !isUnknown(v));
  return [...new Set(wanted)]
    .filter((v) => !offered.includes(v))
    .map((v) => `${change.kind} ${resource.name} would run version ${v}, which is not offered (offered: ${offered.join(", ")}; config value "offered")`);
}

function summaries(ops: PlannedOperation[]): string {
  return ops.map((op) => op.summary).join("; ");
}
