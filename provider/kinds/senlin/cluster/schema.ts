import { z } from "zod";
import { OWNER_LABEL_KEY } from "../../../core/naming";
import { formatDuration, parseDuration } from "../../../core/deadline";
import { describeValue, isUnknown, orUnknown, secondsDuration, UNKNOWN } from "../../../core/validation";
import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { defaulted, ignored, inPlace, optional, required, type Value, v } from "../../../core/definition/values";
import { defineCalls, extendCalls } from "../../../core/plan/calls";

/** Senlin's `max_nodes_per_cluster` default: no size or bound above it is accepted. */
export const MAX_NODES = 1000;

/** Senlin's largest `timeout` (an int32 of seconds). */
const MAX_ACTION_TIMEOUT_SECONDS = 2_147_483_647;

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
const nonEmpty = (rule: string) => checked<string>((v) => isString(v) && v.trim() !== "", rule);
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

const policyBinding = v.object("PolicyBinding", "A policy attached to the cluster.", {
  policy: required(v.custom({ kind: "string" }, nonEmpty("must be a policy name, short id or UUID (a non-empty string)")), {
    description: "The policy's name, short id or UUID.",
  }),
  enabled: optional(v.boolean(), { description: "Whether the policy is enforced. A change is one `policy_update` action.", default: "true", defaultValue: true }),
});

/** One policy the cluster should have attached, as `complete` leaves it (`enabled` filled in). */
export type PolicyBinding = Required<typeof policyBinding extends Value<infer T> ? T : never>;

/** The policy list: a set, each policy at most once. */
const policyList = () =>
  orUnknown(z.array(policyBinding.validate)).superRefine((list, ctx) => {
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


/**
 * The Senlin calls an in-place update of a cluster makes, in the order it makes them: one PATCH,
 * one resize, then the policy actions. operations.ts has an executor for each.
 */
export const CLUSTER_UPDATE_CALLS = defineCalls("UpdateCluster", "ResizeCluster", "DetachClusterPolicy", "AttachClusterPolicy", "UpdateClusterPolicy");

/** Every Senlin call a cluster's plans name, each written once: the update's, then create's and delete's. */
export const CLUSTER_CALLS = extendCalls(CLUSTER_UPDATE_CALLS, "CreateCluster", "DeleteCluster");

/**
 * The operation a `policies` change names (its policy, the reference and the planner read it): the
 * detach, attach and `enabled` update calls the set difference asks for, planned together.
 */
export const POLICY_ACTIONS = {
  operation: "ClusterPolicies",
  calls: [CLUSTER_CALLS.DetachClusterPolicy, CLUSTER_CALLS.AttachClusterPolicy, CLUSTER_CALLS.UpdateClusterPolicy],
} as const;

const UPDATE = inPlace(CLUSTER_CALLS.UpdateCluster);
const RESIZE = inPlace(CLUSTER_CALLS.ResizeCluster);

/** `senlin:Cluster`, every field written once. Senlin changes every one of them in place. */
export const clusterKind = defineFields({
  type: "senlin:Cluster",
  description:
    "An OpenStack Senlin cluster: a set of identical nodes kept at a size. Create waits for the create action and attaches " +
    "the policies; size and bounds change with one `resize`; name, profile, actionTimeout, metadata and config with one PATCH; " +
    "delete detaches the policies and waits until the cluster is gone. Credentials come from `OS_*`, `clouds.yaml` or the " +
    "provider configuration.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    name: optional(v.custom({ kind: "string" }, senlinName()), {
      computed: true,
      description:
        "The cluster name: an ASCII letter, then letters, digits, `_`, `.` or `-` (at most 254). Senlin names need not be " +
        "unique; Clusterform knows its clusters by a metadata marker.",
      default: "the resource name, `-` and a 7-character hash, stable for this resource",
      policy: UPDATE,
    }),
    profile: required(v.custom({ kind: "string" }, nonEmpty("must be a profile name, short id or UUID (a non-empty string)")), {
      description: "The profile nodes are built from (name, short id or UUID). A change is Senlin's rolling update of the nodes; " +
        "Senlin refuses a profile of another profile type.",
      policy: UPDATE,
    }),
    actionTimeout: optional(v.custom({ kind: "string" }, actionTimeout()), {
      description:
        "How long Senlin lets each of the cluster's actions (create, resize, scale, update) run before it fails the action: " +
        "Senlin's `timeout`, as a duration of whole seconds (`\"30m\"`, `\"1h30m\"`). Until 0.3.0 this was `timeout`, in seconds.",
      default: "the server's default_action_timeout (1h)",
      serverDefault: true,
      policy: UPDATE,
    }),
    metadata: optional(v.custom({ kind: "map", of: { kind: "json" } }, userMetadata()), {
      description: "Free-form metadata; the key `clusterform.dev/owner` is reserved.",
      default: "{}",
      policy: UPDATE,
    }),
    config: optional(v.custom({ kind: "map", of: { kind: "json" } }, jsonObject()), {
      description: 'Cluster configuration, e.g. `{ "node.name.format": "web-$3I" }`.',
      default: "{}",
      policy: UPDATE,
    }),
    minSize: defaulted(v.int(0, MAX_NODES), { description: "Fewest nodes.", defaultValue: 0, policy: RESIZE }),
    maxSize: defaulted(v.int(-1, MAX_NODES), { description: "Most nodes; -1 is unbounded.", defaultValue: -1, policy: RESIZE }),
    desiredCapacity: optional(v.int(0, MAX_NODES), {
      description: "Nodes wanted, between `minSize` and `maxSize` (EXACT_CAPACITY).",
      default: "minSize",
      policy: RESIZE,
      // Senlin's scaling policies and receivers' webhooks move it on their own.
      platformSize: { min: "minSize", max: "maxSize" },
    }),
    policies: optional(v.custom({ kind: "list", of: policyBinding.type }, policyList()), {
      description: "Policies to attach, as a set (order does not matter, each policy at most once): one `policy_attach` per new policy, " +
        "one `policy_detach` per removed one, one `policy_update` per changed `enabled`, nothing for the rest.",
      default: "[]",
      policy: inPlace(POLICY_ACTIONS.operation),
    }),
    profileOnly: optional(v.boolean(), {
      description:
        "When the profile changes, change only the cluster's profile, not its existing nodes (`profile_only`, microversion " +
        "1.6). Changing this alone does nothing.",
      default: "false",
      defaultValue: false,
      // How a profile change is carried out, not a state of the cluster.
      policy: ignored,
    }),
  },
  refine: (inputs, ctx) => {
    for (const problem of sizeProblems(inputs)) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  },
  outputs: {
    status: { type: { kind: "string" }, description: "ACTIVE, WARNING, ERROR, ... as Senlin reports it." },
    statusReason: { type: { kind: "string" }, description: "Senlin's explanation of the status." },
    nodeIds: { type: { kind: "list", of: { kind: "string" } }, description: "UUIDs of the member nodes, sorted." },
    profileName: { type: { kind: "string" }, description: "Name of the cluster's profile." },
  },
  timeouts: { create: "30m", update: "30m", delete: "30m" },
  deletionPolicy: true,
  migrations: [
    {
      release: "0.3.0",
      why:
        "the action timeout was `timeout`, a number of seconds beside `timeouts`, whose values are durations; " +
        "it is now `actionTimeout`, a duration like every other time the provider takes",
      steps: [{ rename: "timeout", to: "actionTimeout", convert: (seconds) => (typeof seconds === "number" ? actionTimeoutOf(seconds) : seconds) }],
    },
  ],
  importId: {
    shape: "the Senlin cluster id (a UUID, as `openstack cluster show` prints it)",
    example: "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
    unreported: [],
  },
});

/** Validated inputs of a Senlin cluster. */
export type ClusterInputs = InputsOf<typeof clusterKind.inputs, typeof clusterKind.hidden>;

export const clusterSchema = clusterKind.schema;

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
 * How each input is changed: Senlin changes everything in place. Name, metadata, actionTimeout, config
 * and profile are one PATCH; the size fields one `resize` action; each policy its own action.
 */
export const clusterPolicies = clusterKind.policies;

/** Default timeouts: Senlin creates servers, which takes minutes. */
export const CLUSTER_TIMEOUTS = clusterKind.timeouts;

/** Senlin's `default_action_timeout`: what an unset `actionTimeout` means. */
export const DEFAULT_TIMEOUT_SECONDS = 3600;

/**
 * An action timeout: a duration of whole seconds (Senlin takes seconds), written as the shortest
 * duration for the same time (`"1800s"` is `"30m"`), as a migrated state and an import write it.
 */
function actionTimeout(): z.ZodType<string, unknown> {
  return secondsDuration(1, MAX_ACTION_TIMEOUT_SECONDS).transform((text) => (text === UNKNOWN ? text : formatDuration(parseDuration(text)))) as unknown as z.ZodType<string, unknown>;
}

/** Seconds of a validated action timeout (`"30m"`: 1800). */
export function actionTimeoutSeconds(text: string): number {
  return parseDuration(text) / 1000;
}

/** An action timeout in seconds as the input writes it (1800: `"30m"`). */
export function actionTimeoutOf(seconds: number): string {
  return formatDuration(seconds * 1000);
}
