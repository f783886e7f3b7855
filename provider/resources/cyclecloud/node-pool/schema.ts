import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { describeValue, intInRange, isUnknown, orUnknown } from "../../../core/validation";
import { timeouts, type Timeouts } from "../../fields";

/** Validated inputs of a CycleCloud node pool. */
export interface NodePoolInputs {
  owner: string;
  resourceName: string;
  clusterName: string;
  nodearray: string;
  count?: number;
  coreCount?: number;
  machineType?: string;
  nameFormat?: string;
  nameOffset?: number;
  nodeAttributes?: Record<string, unknown>;
  placementGroupId?: string;
  timeouts?: Timeouts;
}

/** Bounds of `count` and `coreCount`. */
export const POOL_LIMITS = { maxCount: 1000, maxCoreCount: 100_000, maxNameOffset: 1_000_000 } as const;

/** Node-record attributes CycleCloud sets itself (or Clusterform reads): a pool cannot set them. */
export const RESERVED_ATTRIBUTES = [
  "Name",
  "NodeId",
  "ClusterName",
  "Template",
  "MachineType",
  "Region",
  "State",
  "Status",
  "TargetState",
  "StatusMessage",
  "Hostname",
  "PrivateIp",
  "InstanceId",
  "RequestId",
  "PlacementGroupId",
  "Interruptible",
] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MACHINE_TYPE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const NAME_FORMAT = /^[A-Za-z0-9][A-Za-z0-9_.-]*%d[A-Za-z0-9_.-]*$|^%d[A-Za-z0-9_.-]*$/;
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A string matching `pattern`, else a failure stating `rule` and the value received. */
function matching(pattern: RegExp, rule: string, extra?: (v: string) => string | undefined) {
  return orUnknown(
    z.unknown().superRefine((v, ctx) => {
      const problem = typeof v !== "string" || !pattern.test(v) ? rule : extra?.(v);
      if (problem) ctx.addIssue({ code: "custom", message: `${problem}, got ${describeValue(v)}`, input: v });
    }),
  ) as z.ZodType<string, unknown>;
}

/** A CycleCloud cluster, nodearray or placement group name. */
const ccName = () => matching(NAME, "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit");

/** `nameFormat`: node names with exactly one `%d`, where CycleCloud puts the node's index. */
const nameFormat = () =>
  matching(
    NAME_FORMAT,
    `must be a node name pattern with exactly one "%d" (the node index) and otherwise letters, digits, '_', '.' or '-', such as "compute-%d"`,
    (v) => (v.split("%d").length !== 2 ? `must contain "%d" exactly once, such as "compute-%d"` : v.length > 60 ? "must be at most 60 characters" : undefined),
  );

const nodeAttributes = () =>
  orUnknown(
    z.record(z.string(), z.unknown()).superRefine((attrs, ctx) => {
      for (const key of Object.keys(attrs)) {
        const reserved = (RESERVED_ATTRIBUTES as readonly string[]).includes(key);
        if (!reserved && ATTRIBUTE.test(key)) continue;
        const message = reserved
          ? `is set by CycleCloud and cannot be given; reserved: ${RESERVED_ATTRIBUTES.join(", ")}`
          : "must be a node attribute name: a letter, then up to 63 letters, digits or '_' (such as \"KeepAlive\")";
        ctx.addIssue({ code: "custom", message, path: [key], params: { mapKey: true }, input: key });
      }
    }),
  ).optional();

/** The inputs' pool size: `count` nodes or `coreCount` cores, exactly one. */
function exactlyOneSize(inputs: { count?: unknown; coreCount?: unknown }, ctx: z.RefinementCtx): void {
  const given = [inputs.count, inputs.coreCount].filter((v) => v !== undefined).length;
  if (given === 1) return;
  // Neither given: no field holds a value, and Pulumi would print `value {<nil>}` next to one.
  if (given === 0) {
    ctx.addIssue({ code: "custom", message: "must set either count (nodes) or coreCount (cores), got neither", path: [], input: inputs });
    return;
  }
  const message = `and coreCount cannot both be set: give one of them, got count ${describeValue(inputs.count)} and coreCount ${describeValue(inputs.coreCount)}`;
  ctx.addIssue({ code: "custom", message, path: ["count"], input: inputs.count });
}

export const nodePoolSchema: z.ZodType<NodePoolInputs, unknown> = z
  .object({
    owner: z.string().min(1),
    resourceName: z.string().min(1),
    clusterName: ccName(),
    nodearray: ccName(),
    count: intInRange(0, POOL_LIMITS.maxCount).optional(),
    coreCount: intInRange(0, POOL_LIMITS.maxCoreCount).optional(),
    machineType: matching(MACHINE_TYPE, 'must be an Azure VM size such as "Standard_F2s_v2": a letter, then up to 63 letters, digits or \'_\'').optional(),
    nameFormat: nameFormat().optional(),
    nameOffset: intInRange(0, POOL_LIMITS.maxNameOffset).optional(),
    nodeAttributes: nodeAttributes(),
    placementGroupId: ccName().optional(),
    timeouts: timeouts(),
  })
  .strict()
  .superRefine(exactlyOneSize) as z.ZodType<NodePoolInputs, unknown>;

/**
 * How each input is changed: the size in place (nodes/create of the difference, or nodes/remove of
 * the surplus); everything that shapes a node replaces the pool, since CycleCloud cannot change a
 * node's array, size, name or attributes once it exists.
 */
export const nodePoolPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  clusterName: { kind: "replace" },
  nodearray: { kind: "replace" },
  machineType: { kind: "replace" },
  nameFormat: { kind: "replace" },
  nameOffset: { kind: "replace" },
  nodeAttributes: { kind: "replace" },
  placementGroupId: { kind: "replace" },
  count: { kind: "update", operation: "CreateNodes/RemoveNodes" },
  coreCount: { kind: "update", operation: "CreateNodes/RemoveNodes" },
};

/** The inputs that force replacement, in table order: they seed the pool's request ids. */
export function nodePoolReplaceFields(inputs: Record<string, unknown>): unknown[] {
  return Object.entries(nodePoolPolicies)
    .filter(([, p]) => p.kind === "replace")
    .map(([field]) => inputs[field]);
}

/** True when any input that seeds the request ids is unknown (preview). */
export function hasUnknownIdentity(inputs: Record<string, unknown>): boolean {
  return isUnknown(inputs.owner) || nodePoolReplaceFields(inputs).some(isUnknown);
}

/** Default timeouts of pool operations. */
export const NODE_POOL_TIMEOUTS: Required<Timeouts> = { create: "20m", update: "20m", delete: "20m" };
