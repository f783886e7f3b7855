import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { OWNER_LABEL_KEY } from "../../../core/naming";
import { describeValue, intInRange, isUnknown, orUnknown, UNKNOWN } from "../../../core/validation";
import { timeouts, type Timeouts } from "../../fields";

/** One policy the cluster should have attached. */
export interface PolicyBinding {
  /** The policy's name, short id or UUID. */
  policy: string;
  /** @default true */
  enabled: boolean;
}

/** Validated inputs of a Senlin cluster. */
export interface ClusterInputs {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  profile: string;
  minSize: number;
  maxSize: number;
  desiredCapacity?: number;
  timeout?: number;
  metadata?: Record<string, unknown>;
  config?: Record<string, unknown>;
  policies?: PolicyBinding[];
  profileOnly?: boolean;
  timeouts?: Timeouts;
}

/** Senlin's `max_nodes_per_cluster` default: no size or bound above it is accepted. */
export const MAX_NODES = 1000;

/** The metadata key that marks a cluster as created by one Pulumi resource (Senlin names are not unique). */
export const OWNER_KEY = OWNER_LABEL_KEY;

const NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const NAME_RULE = "must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-'";

/** A custom check that lets the unknown sentinel through. */
function checked<T>(accept: (v: unknown) => boolean, rule: string): z.ZodType<T, unknown> {
  return z.unknown().transform((value, ctx) => {
    if (value === UNKNOWN || accept(value)) return value as T;
    ctx.addIssue({ code: "custom", message: value === undefined ? "is required" : `${rule}, got ${describeValue(value)}`, input: value });
    return z.NEVER;
  }) as unknown as z.ZodType<T, unknown>;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A cluster name as Senlin's API accepts it. */
export const senlinName = () => checked<string>((v) => isString(v) && v.length <= 254 && NAME.test(v), NAME_RULE);

/** A JSON object (Senlin's `metadata` and `config`). */
const jsonObject = () => checked<Record<string, unknown>>(isObject, "must be an object of keys to JSON values");

/** User metadata: any JSON object whose ownership key is left to Clusterform. */
const userMetadata = () =>
  jsonObject().superRefine((metadata, ctx) => {
    if (isObject(metadata) && Object.hasOwn(metadata, OWNER_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [OWNER_KEY],
        message: `is reserved: Clusterform sets ${OWNER_KEY} to mark the clusters it created, got ${describeValue(metadata[OWNER_KEY])}`,
        params: { mapKey: true },
      });
    }
  });

const policyBinding = orUnknown(
  z
    .object({
      policy: checked<string>((v) => isString(v) && v.trim() !== "", "must be a policy name, short id or UUID (a non-empty string)"),
      enabled: orUnknown(z.boolean()).optional(),
    })
    .strict(),
);

/** The policy list: a set, each policy at most once. */
const policyList = () =>
  orUnknown(z.array(policyBinding)).superRefine((list, ctx) => {
    if (!Array.isArray(list)) return;
    const seen = new Map<string, number>();
    list.forEach((item, i) => {
      const name = isObject(item) ? item.policy : undefined;
      if (!isString(name) || isUnknown(name)) return;
      const first = seen.get(name);
      if (first === undefined) seen.set(name, i);
      else ctx.addIssue({ code: "custom", path: [i, "policy"], message: `must name each policy once, got ${describeValue(name)} again (also at policies[${first}])` });
    });
  });

const timeoutSeconds = () => intInRange(1, 2_147_483_647);

export const clusterSchema: z.ZodType<ClusterInputs, unknown> = z
  .object({
    owner: z.string().min(1),
    resourceName: z.string().min(1),
    name: senlinName().optional(),
    autoNamed: z.boolean().optional(),
    profile: checked<string>((v) => isString(v) && v.trim() !== "", "must be a profile name, short id or UUID (a non-empty string)"),
    minSize: intInRange(0, MAX_NODES).default(0),
    maxSize: intInRange(-1, MAX_NODES).default(-1),
    desiredCapacity: intInRange(0, MAX_NODES).optional(),
    timeout: timeoutSeconds().optional(),
    metadata: userMetadata().optional(),
    config: jsonObject().optional(),
    policies: policyList().optional(),
    profileOnly: orUnknown(z.boolean()).optional(),
    timeouts: timeouts(),
  })
  .strict()
  .superRefine((inputs, ctx) => {
    for (const problem of sizeProblems(inputs)) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  }) as unknown as z.ZodType<ClusterInputs, unknown>;

const known = (v: unknown): v is number => typeof v === "number";

/** The size rules Senlin's API enforces, checked before any call: min <= desired <= max (max -1 is unbounded). */
export function sizeProblems(inputs: { minSize?: unknown; maxSize?: unknown; desiredCapacity?: unknown }): { field: string; message: string }[] {
  const { minSize, maxSize, desiredCapacity } = inputs;
  const problems: { field: string; message: string }[] = [];
  const bounded = known(maxSize) && maxSize >= 0;
  if (known(minSize) && bounded && minSize > maxSize) {
    problems.push({ field: "minSize", message: `must not exceed maxSize (${maxSize}), got ${minSize}` });
  }
  if (known(desiredCapacity)) {
    const upper = bounded ? `${maxSize}` : "unbounded";
    const allowed = `between minSize (${known(minSize) ? minSize : "?"}) and maxSize (${upper})`;
    if ((known(minSize) && desiredCapacity < minSize) || (bounded && desiredCapacity > maxSize)) {
      problems.push({ field: "desiredCapacity", message: `must be ${allowed}, got ${desiredCapacity}` });
    }
  }
  return problems;
}

/**
 * How each input is changed: Senlin changes everything in place. Name, metadata, timeout, config
 * and profile are one PATCH; the size fields one `resize` action; each policy its own action.
 */
export const clusterPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  autoNamed: { kind: "ignore" },
  // How a profile change is carried out, not a state of the cluster.
  profileOnly: { kind: "ignore" },
  name: { kind: "update", operation: "UpdateCluster" },
  profile: { kind: "update", operation: "UpdateCluster" },
  timeout: { kind: "update", operation: "UpdateCluster" },
  metadata: { kind: "update", operation: "UpdateCluster" },
  config: { kind: "update", operation: "UpdateCluster" },
  minSize: { kind: "update", operation: "ResizeCluster" },
  maxSize: { kind: "update", operation: "ResizeCluster" },
  desiredCapacity: { kind: "update", operation: "ResizeCluster" },
  policies: { kind: "update", operation: "ClusterPolicies" },
};

/** Default timeouts: Senlin creates servers, which takes minutes. */
export const CLUSTER_TIMEOUTS: Required<Timeouts> = { create: "30m", update: "30m", delete: "30m" };

/** Senlin's `default_action_timeout`: what an unset `timeout` means. */
export const DEFAULT_TIMEOUT_SECONDS = 3600;
