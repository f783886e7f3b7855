/**
 * The Senlin scenarios run against the real Senlin and the local plane alike (parity.ts).
 * Every step's answer is compared after normalising ids and times; steps with `wait` also compare
 * the action once it ended, the statuses it went through (lifecycle.ts says which) and the state
 * it left.
 */

/** One request of a scenario. `{{name}}` in a path, URL or body is a value an earlier step saved. */
export interface Step {
  name: string;
  method: string;
  /** Path under Senlin's root, e.g. `/v1/clusters`. */
  path?: string;
  /** An absolute URL instead (a webhook's `alarm_url`). */
  url?: string;
  body?: unknown;
  /** The microversion asked for; null sends no header. @default "1.14" */
  version?: string | null;
  /** false: no token (webhook triggers). @default true */
  auth?: boolean;
  /** Values to keep: variable name to a dotted path in the body, or `location` for the action id of the `Location` header. */
  save?: Record<string, string>;
  /** `action`: wait for the action the answer names to end; `idle`: for every action on the `state` cluster. */
  wait?: "action" | "idle";
  /** A path read after the step (and its wait): the state it left. */
  state?: string;
  /** What is compared: everything, the keys only (`shape`: content that differs by design), or the status. @default "full" */
  compare?: "full" | "shape" | "status";
  /**
   * For a listing: each item of the body's list compared on these fields only (after normalising),
   * in order, the fields that say what happened (an event's action, status, object and level), not
   * the ones that only number or date it. @default every field
   */
  fields?: string[];
  /** Dotted paths of lists compared as sets (of their items cut to `fields`): their order is not the server's to keep. @default [] */
  unordered?: string[];
}

/** A named sequence of steps, run in order on each server. */
export interface Scenario {
  name: string;
  steps: Step[];
}

const PROFILE_SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros", networks: [{ network: "private" }] } };
const PROFILE_SPEC_V2 = { ...PROFILE_SPEC, properties: { ...PROFILE_SPEC.properties, image: "cirros-v2" } };
const SCALING_OUT = {
  type: "senlin.policy.scaling",
  version: "1.0",
  properties: { event: "CLUSTER_SCALE_OUT", adjustment: { type: "CHANGE_IN_CAPACITY", number: 1, min_step: 1, best_effort: true } },
};
const BATCH = { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 1, max_batch_size: 1, pause_time: 0 } };
const DELETION = { type: "senlin.policy.deletion", version: "1.1", properties: { criteria: "OLDEST_FIRST" } };

/*
 * The listings of actions and events compare as sets (`unordered`): the real server stores their
 * times in whole seconds (MariaDB DATETIME), so those of one second come in any order there.
 */
/** What an action of a listing did: its kind, cause, target, outcome, inputs and what it recorded (not its name, id or times). */
const ACTION_FIELDS = ["action", "cause", "target", "cluster_id", "status", "status_reason", "inputs", "outputs", "data", "depends_on", "depended_by"];
/** What an event says: which action, at which phase, on which object, at which level, why (not its id, time, user or project). */
const EVENT_FIELDS = ["action", "status", "status_reason", "level", "otype", "oid", "oname", "cluster_id", "meta_data"];

const cluster = (name: string) => `/v1/clusters/${name}`;
const act = (name: string, step: string, body: unknown, extra: Partial<Step> = {}): Step => ({
  name: step,
  method: "POST",
  path: `${cluster(name)}/actions`,
  body,
  save: { [`${step}_action`]: "location" },
  wait: "action",
  state: cluster(name),
  ...extra,
});
const createCluster = (name: string, profile: string, sizes: Record<string, number>): Step => ({
  name: "create cluster",
  method: "POST",
  path: "/v1/clusters",
  body: { cluster: { name, profile_id: profile, ...sizes } },
  save: { cluster: "cluster.id" },
  wait: "action",
  state: cluster(name),
});
const createProfile = (name: string, spec: unknown = PROFILE_SPEC): Step => ({
  name: `create profile ${name}`,
  method: "POST",
  path: "/v1/profiles",
  body: { profile: { name, spec } },
  save: { [name]: "profile.id" },
});
const deleteCluster = (name: string): Step => ({ name: "delete cluster", method: "DELETE", path: cluster(name), wait: "action" });

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "profiles",
    steps: [
      createProfile("pa"),
      { name: "get profile", method: "GET", path: "/v1/profiles/pa" },
      { name: "list profiles", method: "GET", path: "/v1/profiles?name=pa" },
      { name: "update profile name", method: "PATCH", path: "/v1/profiles/pa", body: { profile: { name: "pa2" } } },
      { name: "validate profile", method: "POST", path: "/v1/profiles/validate", body: { profile: { spec: PROFILE_SPEC } } },
      { name: "create profile without spec", method: "POST", path: "/v1/profiles", body: { profile: { name: "bad" } } },
      { name: "create profile of unknown type", method: "POST", path: "/v1/profiles", body: { profile: { name: "bad", spec: { type: "os.nope", version: "1.0", properties: {} } } } },
      { name: "get unknown profile", method: "GET", path: "/v1/profiles/no-such-profile" },
      { name: "delete profile", method: "DELETE", path: "/v1/profiles/pa2" },
    ],
  },
  {
    name: "policies",
    steps: [
      { name: "create scaling policy", method: "POST", path: "/v1/policies", body: { policy: { name: "grow", spec: SCALING_OUT } }, save: { grow: "policy.id" } },
      { name: "create deletion policy", method: "POST", path: "/v1/policies", body: { policy: { name: "oldest", spec: DELETION } } },
      { name: "get policy", method: "GET", path: "/v1/policies/grow" },
      { name: "update policy name", method: "PATCH", path: "/v1/policies/grow", body: { policy: { name: "grow2" } } },
      { name: "create policy of unknown type", method: "POST", path: "/v1/policies", body: { policy: { name: "bad", spec: { type: "senlin.policy.nope", version: "1.0", properties: {} } } } },
      { name: "validate policy", method: "POST", path: "/v1/policies/validate", body: { policy: { spec: BATCH } } },
      { name: "delete policies", method: "DELETE", path: "/v1/policies/grow2" },
      { name: "delete deletion policy", method: "DELETE", path: "/v1/policies/oldest" },
    ],
  },
  {
    name: "cluster lifecycle and resize",
    steps: [
      createProfile("pr"),
      createCluster("rs", "pr", { min_size: 1, max_size: 4, desired_capacity: 2 }),
      { name: "list clusters", method: "GET", path: "/v1/clusters?name=rs" },
      { name: "update metadata", method: "PATCH", path: cluster("rs"), body: { cluster: { metadata: { team: "a" } } }, wait: "action", state: cluster("rs") },
      act("rs", "resize exact", { resize: { adjustment_type: "EXACT_CAPACITY", number: 3 } }),
      act("rs", "resize change in capacity", { resize: { adjustment_type: "CHANGE_IN_CAPACITY", number: -1 } }),
      act("rs", "resize change in percentage", { resize: { adjustment_type: "CHANGE_IN_PERCENTAGE", number: 50, min_step: 1 } }),
      act("rs", "resize beyond max_size", { resize: { adjustment_type: "EXACT_CAPACITY", number: 9 } }),
      act("rs", "resize beyond max_size, not strict", { resize: { adjustment_type: "EXACT_CAPACITY", number: 9, strict: false } }),
      act("rs", "resize bounds", { resize: { min_size: 0, max_size: 5 } }),
      { name: "resize min above max", method: "POST", path: `${cluster("rs")}/actions`, body: { resize: { min_size: 6, max_size: 5 } } },
      { name: "resize without parameters", method: "POST", path: `${cluster("rs")}/actions`, body: { resize: {} } },
      act("rs", "scale out", { scale_out: { count: 1 } }),
      act("rs", "scale in", { scale_in: { count: 2 } }),
      act("rs", "scale out past max_size", { scale_out: { count: 9 } }),
      { name: "collect attribute", method: "GET", path: `${cluster("rs")}/attrs/details.name`, compare: "shape" },
      { name: "actions of the cluster", method: "GET", path: "/v1/actions?target={{cluster}}&sort=created_at", fields: ACTION_FIELDS, unordered: ["body.actions"] },
      { name: "events of the cluster", method: "GET", path: "/v1/events?oid={{cluster}}&sort=timestamp", fields: EVENT_FIELDS, unordered: ["body.events"] },
      deleteCluster("rs"),
      { name: "get deleted cluster", method: "GET", path: cluster("rs") },
    ],
  },
  {
    name: "policies on a cluster",
    steps: [
      createProfile("pp"),
      { name: "create scaling policy", method: "POST", path: "/v1/policies", body: { policy: { name: "grow-pp", spec: SCALING_OUT } }, save: { grow: "policy.id" } },
      createCluster("pc", "pp", { min_size: 1, max_size: 2, desired_capacity: 2 }),
      act("pc", "attach scaling policy", { policy_attach: { policy_id: "grow-pp" } }),
      { name: "cluster policies", method: "GET", path: `${cluster("pc")}/policies` },
      { name: "cluster policy", method: "GET", path: `${cluster("pc")}/policies/grow-pp` },
      act("pc", "scale out at max_size with a scaling policy", { scale_out: {} }),
      act("pc", "disable policy", { policy_update: { policy_id: "grow-pp", enabled: false } }),
      act("pc", "detach policy", { policy_detach: { policy_id: "grow-pp" } }),
      { name: "events of the cluster", method: "GET", path: "/v1/events?oid={{cluster}}&sort=timestamp", fields: EVENT_FIELDS, unordered: ["body.events"] },
      { name: "delete policy", method: "DELETE", path: "/v1/policies/grow-pp" },
      deleteCluster("pc"),
    ],
  },
  {
    name: "rolling profile update",
    steps: [
      createProfile("pu1"),
      createProfile("pu2", PROFILE_SPEC_V2),
      { name: "create batch policy", method: "POST", path: "/v1/policies", body: { policy: { name: "batches-pu", spec: BATCH } } },
      createCluster("ru", "pu1", { min_size: 0, max_size: 3, desired_capacity: 2 }),
      act("ru", "attach batch policy", { policy_attach: { policy_id: "batches-pu" } }),
      { name: "update profile", method: "PATCH", path: cluster("ru"), body: { cluster: { profile_id: "pu2" } }, save: { update: "location" }, wait: "action", state: cluster("ru") },
      { name: "nodes after the update", method: "GET", path: "/v1/nodes?cluster_id=ru&sort=index" },
      act("ru", "detach batch policy", { policy_detach: { policy_id: "batches-pu" } }),
      deleteCluster("ru"),
    ],
  },
  {
    name: "node operations",
    steps: [
      createProfile("pn"),
      createCluster("nc", "pn", { min_size: 0, max_size: 3, desired_capacity: 1 }),
      { name: "create orphan node", method: "POST", path: "/v1/nodes", body: { node: { name: "loner", profile_id: "pn" } }, save: { loner: "node.id" }, wait: "action", state: "/v1/nodes/loner" },
      // The index Senlin 14 gives the added node (so the members' order) varies from run to run.
      act("nc", "add node", { add_nodes: { nodes: ["loner"] } }, { unordered: ["state.cluster.nodes"] }),
      { name: "check node", method: "POST", path: "/v1/nodes/loner/actions", body: { check: {} }, wait: "action", state: "/v1/nodes/loner" },
      { name: "recover node", method: "POST", path: "/v1/nodes/loner/actions", body: { recover: { operation: "REBOOT" } }, wait: "action", state: "/v1/nodes/loner" },
      { name: "rename node", method: "PATCH", path: "/v1/nodes/loner", body: { node: { name: "loner2" } }, wait: "action", state: "/v1/nodes/loner2" },
      { name: "events of the node", method: "GET", path: "/v1/events?oid={{loner}}&sort=timestamp", fields: EVENT_FIELDS, unordered: ["body.events"] },
      act("nc", "delete node from cluster", { del_nodes: { nodes: ["loner2"], destroy_after_deletion: false } }),
      { name: "events of the cluster", method: "GET", path: "/v1/events?oid={{cluster}}&sort=timestamp", fields: EVENT_FIELDS, unordered: ["body.events"] },
      { name: "delete orphan node", method: "DELETE", path: "/v1/nodes/loner2", wait: "action" },
      { name: "delete node of another cluster", method: "POST", path: `${cluster("nc")}/actions`, body: { del_nodes: { nodes: ["no-such-node"] } } },
      deleteCluster("nc"),
    ],
  },
  {
    name: "receivers and webhooks",
    steps: [
      createProfile("pw"),
      createCluster("wc", "pw", { min_size: 0, max_size: 3, desired_capacity: 1 }),
      {
        name: "create webhook receiver",
        method: "POST",
        path: "/v1/receivers",
        body: { receiver: { name: "hook", type: "webhook", cluster_id: "wc", action: "CLUSTER_SCALE_OUT", params: { count: "1" } } },
        save: { alarm: "receiver.channel.alarm_url" },
      },
      { name: "trigger webhook", method: "POST", url: "{{alarm}}", auth: false, version: null, wait: "idle", state: cluster("wc") },
      { name: "list receivers", method: "GET", path: "/v1/receivers?name=hook" },
      { name: "update receiver", method: "PATCH", path: "/v1/receivers/hook", body: { receiver: { params: { count: "2" } } } },
      // The URL still says count=1: Senlin reads no query parameter but V and runs the params the receiver has now (2: beyond max_size, so the action fails and the cluster stays).
      { name: "trigger webhook after the params changed", method: "POST", url: "{{alarm}}", auth: false, version: null, wait: "idle", state: cluster("wc") },
      { name: "notify webhook receiver", method: "POST", path: "/v1/receivers/hook/notify" },
      { name: "create receiver for unknown action", method: "POST", path: "/v1/receivers", body: { receiver: { name: "bad", type: "webhook", cluster_id: "wc", action: "CLUSTER_FLY" } } },
      { name: "create receiver for CLUSTER_CREATE", method: "POST", path: "/v1/receivers", body: { receiver: { name: "bad", type: "webhook", cluster_id: "wc", action: "CLUSTER_CREATE" } } },
      { name: "delete receiver", method: "DELETE", path: "/v1/receivers/hook" },
      deleteCluster("wc"),
    ],
  },
  {
    name: "bad input",
    steps: [
      createProfile("pb"),
      createCluster("bc", "pb", { desired_capacity: 0 }),
      { name: "no action", method: "POST", path: `${cluster("bc")}/actions`, body: {} },
      { name: "two actions", method: "POST", path: `${cluster("bc")}/actions`, body: { scale_in: {}, scale_out: {} } },
      { name: "unknown action", method: "POST", path: `${cluster("bc")}/actions`, body: { fly: {} } },
      { name: "api-ref's update_policy", method: "POST", path: `${cluster("bc")}/actions`, body: { update_policy: { policy_id: "x" } } },
      { name: "scale out by zero", method: "POST", path: `${cluster("bc")}/actions`, body: { scale_out: { count: 0 } } },
      { name: "cluster without profile", method: "POST", path: "/v1/clusters", body: { cluster: { name: "np" } } },
      { name: "cluster with unknown profile", method: "POST", path: "/v1/clusters", body: { cluster: { name: "np", profile_id: "no-such" } } },
      { name: "cluster with an unknown field", method: "POST", path: "/v1/clusters", body: { cluster: { name: "np", profile_id: "pb", size: 3 } } },
      { name: "cluster with min above desired", method: "POST", path: "/v1/clusters", body: { cluster: { name: "np", profile_id: "pb", min_size: 3, desired_capacity: 1 } } },
      { name: "cluster name starting with a digit", method: "POST", path: "/v1/clusters", body: { cluster: { name: "1np", profile_id: "pb" } } },
      { name: "unknown cluster", method: "GET", path: "/v1/clusters/no-such-cluster" },
      { name: "microversion too new", method: "GET", path: "/v1/clusters", version: "1.99" },
      { name: "malformed microversion", method: "GET", path: "/v1/clusters", version: "latest-ish" },
      { name: "no token", method: "GET", path: "/v1/clusters", auth: false, compare: "status" },
      { name: "unknown query parameter", method: "GET", path: "/v1/clusters?colour=red" },
      { name: "versions", method: "GET", path: "/", auth: false, version: null },
      deleteCluster("bc"),
    ],
  },
];
