import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { defaulted, inPlace, optional, replace, required, v } from "../../../core/definition/values";
import { defineCalls, extendCalls } from "../../../core/plan/calls";
import { senlinName } from "../cluster/schema";
import { checked } from "../typed-spec";

/**
 * The cluster actions a webhook receiver may run: Senlin's `CLUSTER_ACTION_NAMES` (the request's
 * `action` field is an enum of them) without `CLUSTER_CREATE`, which its receiver_create refuses
 * ("Action name cannot be any of ['CLUSTER_CREATE']", senlin/conductor/service.py of Senlin 14).
 */
export const RECEIVER_ACTIONS = [
  "CLUSTER_SCALE_OUT",
  "CLUSTER_SCALE_IN",
  "CLUSTER_RESIZE",
  "CLUSTER_CHECK",
  "CLUSTER_RECOVER",
  "CLUSTER_ADD_NODES",
  "CLUSTER_DEL_NODES",
  "CLUSTER_REPLACE_NODES",
  "CLUSTER_UPDATE",
  "CLUSTER_DELETE",
  "CLUSTER_ATTACH_POLICY",
  "CLUSTER_DETACH_POLICY",
  "CLUSTER_UPDATE_POLICY",
  "CLUSTER_OPERATION",
] as const;

/** The Senlin call an in-place update of a receiver makes (one PATCH); operations.ts has its executor. */
export const RECEIVER_UPDATE_CALLS = defineCalls("UpdateReceiver");

/** Every Senlin call a receiver's plans name, each written once: the update's, then create's and delete's. */
export const RECEIVER_CALLS = extendCalls(RECEIVER_UPDATE_CALLS, "CreateReceiver", "DeleteReceiver");

const UPDATE = inPlace(RECEIVER_CALLS.UpdateReceiver);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const actionValue = v.custom<(typeof RECEIVER_ACTIONS)[number]>(
  { kind: "string", enum: RECEIVER_ACTIONS },
  checked<(typeof RECEIVER_ACTIONS)[number]>(
    (value) => (RECEIVER_ACTIONS as readonly unknown[]).includes(value),
    `must be a cluster action a receiver may run: ${RECEIVER_ACTIONS.join(", ")} (Senlin refuses CLUSTER_CREATE)`,
  ),
);

/**
 * The receiver type: only `webhook`. A `message` receiver (a Zaqar queue cluster actions are posted
 * to) gives no URL and needs Zaqar: it is refused with that reason.
 */
const typeValue = v.custom<"webhook">(
  { kind: "string", enum: ["webhook"] },
  checked<"webhook">(
    (value) => value === "webhook",
    'must be "webhook" (Senlin\'s "message" receivers, a Zaqar queue cluster actions are posted to, are not supported: they give no URL and need Zaqar)',
  ),
);

/** `senlin:Receiver`: name, action and params change in place; another cluster is a new receiver. */
export const receiverKind = defineFields({
  type: "senlin:Receiver",
  description:
    "An OpenStack Senlin webhook receiver: a URL that runs one cluster action (scale out, scale in, resize, ...) with " +
    "the receiver's params when anything POSTs to it, without a token (an Aodh or Prometheus alarm, a script). The URL " +
    "is a bearer credential: it is the secret output `alarmUrl`. Name, action and params change in place (one PATCH; the " +
    "URL stays the same, and Senlin runs the new action and params through it); another cluster is a new receiver with a " +
    "new URL. Senlin deletes a cluster's receivers when it deletes the cluster. Senlin keeps no metadata on receivers: an " +
    "interrupted create is recognized by its derived name and cluster.",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  inputs: {
    name: optional(v.custom({ kind: "string" }, senlinName()), {
      computed: true,
      description: "The receiver name: an ASCII letter, then letters, digits, `_`, `.` or `-` (at most 254).",
      default: "the resource name, `-` and a 7-character hash of the owner and the cluster (another cluster gets a new name)",
      policy: UPDATE,
    }),
    cluster: required(
      v.custom<string>({ kind: "string" }, checked<string>((value) => typeof value === "string" && UUID.test(value), "must be a Senlin cluster id (a UUID: the senlin Cluster resource's `id`)")),
      {
        description: "The id of the cluster the action runs on: a `senlin.Cluster`'s `id` (or a `getCluster` lookup's).",
        policy: replace,
        note: "Senlin cannot move a receiver to another cluster",
        example: "4a1e2b3c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
      },
    ),
    action: required(actionValue, {
      description:
        "The cluster action the webhook runs, e.g. `CLUSTER_SCALE_OUT`. Scaling actions follow the cluster's scaling " +
        "policies (`senlin.policy.scaling`) when `params` gives no `count`.",
      policy: UPDATE,
      example: "CLUSTER_SCALE_OUT",
    }),
    params: optional(
      v.custom<Record<string, unknown>>({ kind: "map", of: { kind: "json" } }, checked<Record<string, unknown>>(isObject, "must be an object of keys to JSON values")),
      {
        description:
          "The action's inputs, e.g. `{ count: 1 }` for a scale-out of one node, or `{ adjustment_type: \"CHANGE_IN_CAPACITY\", number: 2 }` " +
          "for a resize. A POST to the URL may add or override them in its body.",
        default: "{}",
        policy: UPDATE,
      },
    ),
    type: defaulted(typeValue, {
      description: 'The receiver type; only `"webhook"` is supported.',
      defaultValue: "webhook",
      policy: replace,
      note: "Senlin cannot change a receiver's type",
    }),
  },
  outputs: {
    alarmUrl: {
      type: { kind: "string" },
      description:
        "The webhook URL (Senlin's `channel.alarm_url`): a POST to it runs the action, without a token. Secret: whoever " +
        "has it can run the action. Fixed at creation: its query string shows the params the receiver was created with, " +
        "while Senlin runs the params the receiver has now.",
      secret: true,
    },
  },
  timeouts: { create: "5m", update: "5m", delete: "5m" },
  importId: {
    shape: "the Senlin receiver id (a UUID, as `openstack cluster receiver show` prints it)",
    example: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
    unreported: [],
  },
});

/** Validated inputs of a Senlin receiver. */
export type ReceiverInputs = InputsOf<typeof receiverKind.inputs, typeof receiverKind.hidden>;

/** Default timeouts: a receiver is one synchronous call. */
export const RECEIVER_TIMEOUTS = receiverKind.timeouts;

/** The identity of a receiver: its name and cluster (Senlin keeps no ownership marker on receivers). */
export function receiverIdentity(name: unknown, cluster: unknown): string | undefined {
  if (typeof name !== "string" || name === "" || typeof cluster !== "string" || cluster === "") return undefined;
  return `receiver ${name} on cluster ${cluster}`;
}
