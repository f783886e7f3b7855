import { z } from "zod";
import { describeValue, isUnknown, orUnknown } from "../../../core/validation";
import { seedValues } from "../../fields";
import { defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, type Value, v } from "../../../core/definition/values";
import { defineCalls, eitherOf } from "../../../core/plan/calls";

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
export const ccName = () => matching(NAME, "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit");

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
  );

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

/**
 * `powerState: "off"` shuts the nodes down by their `ShutdownPolicy`, and keeps them only if they
 * are `Fixed`: node attributes that say otherwise contradict it. Attributes the nodearray sets are
 * checked against the nodes themselves before any call (power.ts).
 */
function offContradictions(inputs: { powerState?: unknown; nodeAttributes?: unknown }, ctx: z.RefinementCtx): void {
  if (inputs.powerState !== "off" || typeof inputs.nodeAttributes !== "object" || inputs.nodeAttributes === null) return;
  const attrs = inputs.nodeAttributes as Record<string, unknown>;
  const contradiction =
    attrs.ShutdownPolicy === "Deallocate"
      ? 'nodeAttributes.ShutdownPolicy is "Deallocate", so nodes/shutdown would deallocate them: use "deallocated"'
      : attrs.Fixed !== undefined && attrs.Fixed !== true
        ? `nodeAttributes.Fixed is ${describeValue(attrs.Fixed)}, so CycleCloud would remove the terminated nodes' records: set Fixed to true or use "deallocated"`
        : undefined;
  if (contradiction) ctx.addIssue({ code: "custom", message: `"off" cannot be used here: ${contradiction}`, path: ["powerState"], input: inputs.powerState });
}

const text = (validate: z.ZodType<string, unknown>): Value<string> => ({ type: { kind: "string" }, validate });
/**
 * The CycleCloud calls of a pool's plans, each written once. Update, create and delete alike add
 * nodes or remove them, so every one is an update call too: converge.ts has an executor for each.
 */
export const NODE_POOL_CALLS = defineCalls("CreateNodes", "RemoveNodes", "StartNodes", "DeallocateNodes", "ShutdownNodes");

const SIZE = inPlace(eitherOf(NODE_POOL_CALLS.CreateNodes, NODE_POOL_CALLS.RemoveNodes));

/** The power states of a pool (power.ts says what each keeps and which call reaches it). */
export const POWER_STATES = ["running", "deallocated", "off"] as const;

/** A pool's power state; an absent `powerState` is `"running"`. */
export type PowerState = (typeof POWER_STATES)[number];

/** `cyclecloud:NodePool`, every field written once. Give exactly one of `count` and `coreCount`. */
export const nodePoolKind = defineFields({
  type: "cyclecloud:NodePool",
  description:
    "A set of nodes of one CycleCloud nodearray, sized by `count` or `coreCount` (give exactly one). Create asks once " +
    "(nodes/create with a request id derived from the resource) and waits until every node is Ready; a new size adds the " +
    "difference or removes exactly the surplus; delete removes every node and waits until they are gone. A node failed or " +
    "preempted outside Pulumi shows after `pulumi refresh` as a lower `readyCount` and `count`, and the next `up` replaces it.",
  hidden: { ...OWNERSHIP },
  inputs: {
    clusterName: required(text(ccName()), {
      description:
        "The CycleCloud cluster (defined in CycleCloud; Clusterform does not create clusters): 1 to 64 letters, digits, `_`, " +
        "`.` or `-`, starting with a letter or digit.",
      policy: replace,
    }),
    nodearray: required(text(ccName()), {
      description: "The nodearray of the cluster the nodes come from; a name as `clusterName`.",
      policy: replace,
    }),
    machineType: optional(
      text(matching(MACHINE_TYPE, 'must be an Azure VM size such as "Standard_F2s_v2": a letter, then up to 63 letters, digits or \'_\'')),
      { description: 'The Azure VM size of one of the nodearray\'s buckets, e.g. `"Standard_F2s_v2"`.', default: "the nodearray's first bucket", policy: replace },
    ),
    nameFormat: optional(text(nameFormat()), {
      description: 'Node names with exactly one `%d` for the index, e.g. `"compute-%d"`.',
      default: '"<nodearray>-%d" (CycleCloud\'s)',
      policy: replace,
    }),
    nameOffset: optional(v.int(0, POOL_LIMITS.maxNameOffset), {
      description: "The first index tried in `nameFormat`.",
      default: "1",
      policy: replace,
    }),
    nodeAttributes: optional(v.custom({ kind: "map", of: { kind: "json" } }, nodeAttributes()), {
      description:
        "Node-record attributes the nodes start with (`KeepAlive`, `Configuration`, ...), e.g. `{ KeepAlive: true }`. " +
        "Attributes CycleCloud sets itself (Name, State, MachineType, ...) are refused.",
      default: "{}",
      policy: replace,
    }),
    placementGroupId: optional(text(ccName()), {
      description: "The placement group the nodes join; a name as `clusterName`.",
      default: "none",
      policy: replace,
    }),
    count: optional(v.int(0, POOL_LIMITS.maxCount), {
      description:
        "How many nodes. Raising it adds the difference (nodes/create); lowering it removes exactly the surplus, nodes not " +
        "Ready first, then the newest (nodes/remove).",
      default: "none: give `count` or `coreCount`",
      policy: SIZE,
      // CycleCloud's autoscaler removes idle nodes on its own.
      platformSize: {},
      example: 1,
      names: { terraform: "node_count" },
    }),
    coreCount: optional(v.int(0, POOL_LIMITS.maxCoreCount), {
      description: "How many cores: the pool holds enough whole nodes of the bucket's VM size to give at least this many vCPUs. Changes like `count`.",
      default: "none: give `count` or `coreCount`",
      policy: SIZE,
      platformSize: {},
    }),
    powerState: optional(v.oneOf(POWER_STATES), {
      description:
        'Whether the pool\'s nodes run: `"running"`; `"deallocated"` (nodes/deallocate: each VM is stopped and its compute ' +
        "released, its disks and private IP kept; nodes/start resumes it from the same disk); or `\"off\"` (nodes/shutdown: each " +
        "VM is terminated, deleting its VM and OS disk and releasing its address, the node record kept; nodes/start builds a " +
        "fresh VM). `\"off\"` needs nodes that are `Fixed` (else CycleCloud removes a terminated node's record) with " +
        "`ShutdownPolicy` Terminate (else nodes/shutdown deallocates). A parked pool keeps its size: change `count` or " +
        "`coreCount` together with `\"running\"` (started first, then resized) or while it runs; with `capacityOwner: " +
        '"platform"` the program\'s size is not applied at all.',
      default: '"running"',
      policy: inPlace(eitherOf(NODE_POOL_CALLS.StartNodes, NODE_POOL_CALLS.DeallocateNodes, NODE_POOL_CALLS.ShutdownNodes)),
      note: 'with a new size in one `up`, StartNodes runs before the resize and DeallocateNodes or ShutdownNodes after it; "off" to "deallocated" is refused (a terminated node has no VM to deallocate)',
    }),
  },
  refine: (inputs, ctx) => {
    exactlyOneSize(inputs, ctx);
    offContradictions(inputs, ctx);
  },
  outputs: {
    nodeIds: { type: { kind: "list", of: { kind: "string" } }, description: "The pool's nodes' ids, oldest first." },
    nodeNames: { type: { kind: "list", of: { kind: "string" } }, description: "The pool's nodes' names, oldest first." },
    readyCount: { type: { kind: "integer" }, description: "How many of the pool's nodes were Ready when last seen." },
    lastOperationId: {
      type: { kind: "string" },
      description:
        "The id of the last CycleCloud operation Clusterform started (or, after adopting an interrupted run's request, that " +
        "request's id, since CycleCloud does not return the operation id of a repeated request).",
    },
    coresPerNode: { type: { kind: "integer" }, description: "vCPUs per node of the pool's VM size." },
  },
  timeouts: { create: "20m", update: "20m", delete: "20m" },
  deletionPolicy: true,
  importId: {
    shape: "`<cluster>/<nodearray>/<request-id base>` (the base starts the pool's nodes' RequestId, e.g. `clusterform-<owner>-<hash>`)",
    example: "demo/execute/clusterform-0123456789abcdef-1a2b3c4d",
    unreported: ["nameFormat", "nameOffset", "nodeAttributes"],
  },
});

/** Validated inputs of a CycleCloud node pool. */
export type NodePoolInputs = InputsOf<typeof nodePoolKind.inputs, typeof nodePoolKind.hidden>;

export const nodePoolSchema = nodePoolKind.schema;

/**
 * How each input is changed: the size in place (nodes/create of the difference, or nodes/remove of
 * the surplus); everything that shapes a node replaces the pool, since CycleCloud cannot change a
 * node's array, size, name or attributes once it exists.
 */
export const nodePoolPolicies = nodePoolKind.policies;

/** True when any input that seeds the request ids is unknown (preview). */
export function hasUnknownIdentity(inputs: Record<string, unknown>): boolean {
  return isUnknown(inputs.owner) || seedValues(nodePoolKind, inputs).some(isUnknown);
}

/** Default timeouts of pool operations. */
export const NODE_POOL_TIMEOUTS = nodePoolKind.timeouts;
