import { expect } from "vitest";
import { isUnknown } from "../../provider/core/unknown";
import type { PlannedOperation } from "../../provider/core/plan/operation";
import { toEngineNames } from "../../provider/core/definition/names";
import { definitionProps } from "../../provider/cli/plan/engine-props";
import { planChange } from "../../provider/cli/plan/plan-change";
import { plannedKindOf } from "../../provider/cli/plan/planners";
import { OWNER_LABEL_KEY } from "../../provider/core/naming";
import type { StepRecord } from "./engine";
import type { AuditEntry } from "./local-plane";

// The kinds are loaded before every e2e file runs (test/harness/load-kinds.ts, a setup file).

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON, read by path
type Body = Record<string, any>;

/**
 * The operations plan of one preview step (the native plugin's Pulumi names read as `clusterform
 * plan` reads them); nothing for a step of no Clusterform resource or no step at all.
 */
export function plannedOperations(step: StepRecord | undefined): PlannedOperation[] {
  if (!step) return [];
  const props = (p: Record<string, unknown> | undefined) => p && definitionProps(step.type, p);
  return planChange({ type: step.type, urn: step.urn, op: step.op, id: step.id, olds: props(step.olds), news: props(step.news) })?.operations ?? [];
}

/** What only the dynamic SDK sends: the native plugin derives the rest of the identity from the URN. */
const DYNAMIC_ONLY = new Set(["__provider", "deleteBeforeReplace", "resourceUrn"]);

/**
 * A dynamic resource's step as the native plugin's preview shows the same change: the type
 * `clusterform:<platform>:<Kind>`, Pulumi's names (a job's `jobOwner` is `owner`), without the
 * hidden inputs the plugin takes from the URN.
 */
function asNativeStep(step: StepRecord): StepRecord | undefined {
  const found = plannedKindOf(step.type, step.news ?? step.olds);
  if (!found) return undefined;
  const type = `clusterform:${found.kind.type}`;
  const [stack, project] = step.urn.split("::");
  const native = (p: Record<string, unknown> | undefined) => p && toEngineNames(found.kind, Object.fromEntries(Object.entries(p).filter(([k]) => !DYNAMIC_ONLY.has(k))), "pulumi");
  return { ...step, type, urn: `${stack}::${project}::${type}::${step.name}`, olds: native(step.olds), news: native(step.news) };
}

/**
 * The change step of the resource `name` in a preview: the `replace` step of a replacement (the
 * engine shows it as three steps), else its one changing step.
 */
export function previewStep(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = steps.filter((s) => s.name === name && s.op !== "same");
  return mine.find((s) => s.op === "replace") ?? mine[0];
}

/**
 * The audit's calls (`Call target`) with each target the plan could not know before the `up` (a
 * new object's id, planned as `?`) masked the same way, so the two lists compare call for call.
 */
export function maskUnplanned(planned: readonly string[], actual: readonly string[]): string[] {
  return actual.map((call, i) => (planned[i]?.endsWith(" ?") && planned[i].split(" ")[0] === call.split(" ")[0] ? `${call.split(" ")[0]} ?` : call));
}

/**
 * Where a planned argument is found in the request body the audit records (`read`, with `unset`:
 * what the provider sends when the argument is unset), or why it is not sent.
 */
type ArgSource = ((body: Body) => unknown) | { read: (body: Body) => unknown; unset: unknown } | { notSent: string };

/** The user's metadata of a body's: the provider adds its ownership marker to whatever the user gave. */
const withoutOwner = (metadata: unknown): unknown => {
  if (typeof metadata !== "object" || metadata === null) return metadata;
  const { [OWNER_LABEL_KEY]: _owner, ...rest } = metadata as Body;
  return rest;
};
const snake = (path: string): string => path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** A protobuf FieldMask in its JSON form (`a.bC,d`) as the paths the provider planned (`a.b_c`, `d`). */
const maskPaths = (mask: unknown): string[] => (typeof mask === "string" && mask !== "" ? mask.split(",").map(snake) : []);
const nonEmpty = (o: unknown): unknown => (o && typeof o === "object" ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "" && v !== 0)) : o);

/**
 * For every call a plan may list, where each of its arguments is in the request body the
 * platform received (as the audit log records it), or why it is not sent. A planned argument
 * missing here fails the comparison: a new argument must say where it goes.
 */
const ARGS: Readonly<Record<string, Readonly<Record<string, ArgSource>>>> = {
  // cma-ssh (gRPC messages in their JSON form)
  CreateCluster: {
    kubernetesVersion: (b) => b.k8sVersion,
    // Senlin's CreateCluster (a REST body `{cluster: ...}`) shares the name.
    profile: (b) => b.cluster?.profile_id,
    desiredCapacity: (b) => b.cluster?.desired_capacity,
    minSize: (b) => b.cluster?.min_size,
    maxSize: (b) => b.cluster?.max_size,
  },
  DeleteCluster: {},
  AddNodePool: { count: (b) => b.workerNodePools?.[0]?.count, instanceType: (b) => b.workerNodePools?.[0]?.instanceType },
  ScaleNodePool: { count: (b) => b.nodePools?.[0]?.count },
  DeleteNodePool: {},
  GetUpgradeClusterInformation: { version: { notSent: "the provider checks it against the versions the call answers" } },
  UpgradeCluster: { from: { notSent: "the version the cluster runs now, for the report" }, to: (b) => b.version },
  // CycleCloud (REST bodies)
  CreateNodes: {
    count: (b) => b.sets?.[0]?.count,
    nodearray: (b) => b.sets?.[0]?.nodearray,
    machineType: (b) => b.sets?.[0]?.definition?.machineType,
    coreCount: { notSent: "the provider turns cores into a node count from the bucket's vCPUs" },
  },
  RemoveNodes: { names: (b) => b.names },
  ...Object.fromEntries(
    ["StartNodes", "DeallocateNodes", "ShutdownNodes"].map((call) => [
      call,
      {
        powerState: { notSent: "the call's path is the state asked for (nodes/start, nodes/deallocate, nodes/shutdown)" },
        from: { notSent: "the power state before, for the report" },
      },
    ]),
  ),
  // Peloton (gRPC messages in their JSON form)
  CreateResourcePool: { name: (b) => b.spec?.name },
  UpdateResourcePool: { fields: { notSent: "Peloton's update takes the whole configuration; the fields say which part changed" } },
  DeleteResourcePool: {},
  CreateJob: { instanceCount: (b) => b.spec?.instanceCount, respoolId: (b) => b.spec?.respoolId?.value },
  ReplaceJob: {
    fields: { notSent: "the whole new job spec is sent; the fields say which part changed" },
    instanceCount: (b) => b.spec?.instanceCount,
    batchSize: (b) => b.updateSpec?.batchSize,
  },
  RestartJob: { batchSize: (b) => b.batchSize },
  StartJob: { instanceCount: { notSent: "StartJob starts every instance of the job" } },
  StopJob: {},
  DeleteJob: {},
  // Senlin (REST bodies)
  UpdateCluster: {
    name: (b) => b.cluster?.name,
    profile: (b) => b.cluster?.profile_id,
    profileOnly: (b) => b.cluster?.profile_only,
    // Senlin takes seconds; the input is a duration.
    actionTimeout: (b) => (b.cluster?.timeout === undefined ? undefined : `${b.cluster.timeout / 60}m`),
    metadata: { read: (b) => withoutOwner(b.cluster?.metadata), unset: {} },
    config: (b) => b.cluster?.config,
  },
  ResizeCluster: {
    adjustmentType: (b) => b.resize?.adjustment_type,
    number: (b) => b.resize?.number,
    minSize: (b) => b.resize?.min_size,
    maxSize: (b) => b.resize?.max_size,
    strict: (b) => b.resize?.strict,
  },
  AttachClusterPolicy: { policy: (b) => b.policy_attach?.policy_id, enabled: (b) => b.policy_attach?.enabled },
  DetachClusterPolicy: { policy: (b) => b.policy_detach?.policy_id },
  UpdateClusterPolicy: { policy: (b) => b.policy_update?.policy_id, enabled: (b) => b.policy_update?.enabled },
  CreateProfile: { name: (b) => b.profile?.name },
  UpdateProfile: { name: (b) => b.profile?.name, metadata: { read: (b) => withoutOwner(b.profile?.metadata), unset: {} } },
  DeleteProfile: {},
  CreatePolicy: { name: (b) => b.policy?.name },
  UpdatePolicy: { name: (b) => b.policy?.name },
  DeletePolicy: {},
  CreateReceiver: { name: (b) => b.receiver?.name, cluster: (b) => b.receiver?.cluster_id, action: (b) => b.receiver?.action },
  UpdateReceiver: { name: (b) => b.receiver?.name, action: (b) => b.receiver?.action, params: { read: (b) => b.receiver?.params, unset: {} } },
  DeleteReceiver: {},
  // vcluster (gRPC messages in their JSON form)
  CreateVCluster: { distro: (b) => b.spec?.distro, kubernetesVersion: (b) => b.spec?.kubernetesVersion },
  RestoreVCluster: { snapshotId: (b) => b.snapshotId },
  UpdateVCluster: { mask: (b) => maskPaths(b.updateMask) },
  ScaleVCluster: { replicas: { read: (b) => b.replicas, unset: 1 }, resources: { read: (b) => nonEmpty(b.resources), unset: {} } },
  ResumeVCluster: {},
  SuspendVCluster: {
    drainWorkloads: { read: (b) => b.drainWorkloads, unset: false },
    drainTimeoutSeconds: { read: (b) => b.drainTimeoutSeconds, unset: 0 },
    createSnapshot: { read: (b) => b.createSnapshot, unset: false },
    snapshotName: { read: (b) => b.snapshotName, unset: "" },
  },
  DeleteVCluster: {},
  SnapshotVCluster: { includeWorkloads: (b) => b.includeWorkloads },
  DeleteSnapshot: {},
};

/** Reads no plan lists: everything named Get/List/Query/Lookup/Watch but the one read cma-ssh's upgrade plans. */
const PLANNED_READS = new Set(["GetUpgradeClusterInformation"]);

/** Whether a plan may list this call: every platform call that changes something, and cma-ssh's upgrade check. */
export const isPlannable = (e: Pick<AuditEntry, "operation">): boolean => PLANNED_READS.has(e.operation) || !/^(Get|List|Query|Lookup|Watch)/.test(e.operation);

/** One planned operation's key arguments as planned and as the audit recorded them (unknown ones left out). */
function keyArguments(o: PlannedOperation, entry: AuditEntry): { planned: Body; audited: Body } {
  const table = ARGS[o.call];
  expect(table, `the planned call ${o.call} has no argument table in test/harness/planned.ts`).toBeDefined();
  const missing = Object.keys(o.args).filter((k) => !Object.hasOwn(table, k));
  expect(missing, `${o.call}: planned argument(s) with no place in the request body`).toEqual([]);
  const planned: Body = {};
  const audited: Body = {};
  for (const [name, source] of Object.entries(table)) {
    if ("notSent" in source || !Object.hasOwn(o.args, name) || isUnknown(o.args[name])) continue;
    const read = typeof source === "function" ? source : source.read;
    planned[name] = o.args[name] === undefined && typeof source !== "function" ? source.unset : o.args[name];
    audited[name] = read((entry.request ?? {}) as Body);
  }
  return { planned, audited };
}

/**
 * Asserts that the operations planned for a preview step are what the `up` sent (issue 18): the
 * same calls on the same targets in the same order (a target the plan could not know is `?`), and
 * each call's key arguments (target size, version, mask, batch size, nodes removed, ...) equal to
 * what the platform received in the request body. `entries` are the audit entries of the `up` that
 * belong to this resource, reads included or not (reads are left out here).
 */
export function expectPlannedAsAudited(step: StepRecord | undefined, entries: readonly AuditEntry[]): void {
  const operations = plannedOperations(step);
  // The same change made through the native plugin plans the same calls (in its own order for a
  // replacement, which may create first): `clusterform plan` reads its names as the handlers do.
  const native = step && asNativeStep(step);
  if (native) {
    const sorted = (ops: PlannedOperation[]) => (step?.op === "update" ? ops : [...ops].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    expect(sorted(plannedOperations(native))).toEqual(sorted(operations));
  }
  expectOperationsAudited(operations, entries);
}

/**
 * Asserts that planned operations are what the platform received: the same calls on the same
 * targets in the same order (a target the plan could not know is `?`), each call's key arguments
 * equal to what its request body holds. `entries` are the audit entries of the change (reads are
 * left out here).
 */
export function expectOperationsAudited(operations: readonly PlannedOperation[], entries: readonly AuditEntry[]): void {
  const calls = entries.filter(isPlannable);
  const planned = operations.map((o) => `${o.call} ${o.target ?? "?"}`);
  expect(planned).toEqual(maskUnplanned(planned, calls.map((e) => `${e.operation} ${e.target}`)));
  const pairs = operations.map((o, i) => keyArguments(o, calls[i]));
  expect(pairs.map((p) => p.audited)).toEqual(pairs.map((p) => p.planned));
}
