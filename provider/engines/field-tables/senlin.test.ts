import { expect } from "vitest";
import { type AdapterPlane, makeFixture, planeWithConfig, runningClock } from "../testing";
import { fieldTable, type Row, type RowContext, STATE_ONLY } from "./testing";

// Senlin: each input field of a cluster maps to Senlin's own operation, on the three engines: the
// exact calls on the cluster's id, and what the cluster or its last action then holds. The plane
// holds the profiles `web-profile` and `web-profile-2` and the policies `deletion` and `affinity`.
// In HCL a name is required: there the cluster starts as `web-0`.

type Spec = Record<string, unknown>;

/** A cluster as GET /_local/senlin/clusters shows it. */
interface ClusterView {
  id: string;
  name: string;
  desired_capacity: number;
  min_size: number;
  max_size: number;
  nodes: string[];
  metadata: Record<string, string>;
  timeout: number;
  config: Record<string, unknown>;
  profile_name: string;
  bindings: { policy_id: string; enabled: boolean }[];
}

/** A Senlin action as GET /_local/senlin/actions shows it. */
interface ActionView {
  action: string;
  target: string;
  inputs: Record<string, unknown>;
}

/** What the plane holds after an apply: the table's cluster and its actions, oldest first. */
interface View {
  cluster: ClusterView;
  actions: ActionView[];
}

async function viewOf(plane: AdapterPlane): Promise<View[]> {
  const { clusters } = (await plane.t.http("GET", "/_local/senlin/clusters")).body as { clusters: ClusterView[] };
  const { actions } = (await plane.t.http("GET", "/_local/senlin/actions")).body as { actions: ActionView[] };
  return clusters.map((cluster) => ({ cluster, actions: actions.filter((a) => a.target === cluster.id) }));
}

/** The cluster's view after the apply: the same cluster (no row replaces it), the only one. */
function after(ctx: RowContext): View {
  const views = ctx.observed.after as View[];
  expect(views.map((v) => v.cluster.id)).toEqual([ctx.before.c.id]);
  expect(ctx.after.c.id).toBe(ctx.before.c.id);
  return views[0];
}

/** The cluster is still the one, and the only one. */
const same = (ctx: RowContext): void => {
  after(ctx);
};

const onId = (...calls: string[]) => (ctx: RowContext) => calls.map((c) => `${c} ${ctx.before.c.id}`);
const change = (fields: Spec) => (spec: Spec) => ({ ...spec, ...fields });

const resize = (number: number, min: number, max: number) => (ctx: RowContext) => {
  const view = after(ctx);
  const resizes = view.actions.filter((a) => a.action === "CLUSTER_RESIZE");
  expect(resizes[resizes.length - 1].inputs).toEqual({ adjustment_type: "EXACT_CAPACITY", number, min_size: min, max_size: max, min_step: null, strict: true });
  const c = view.cluster;
  expect([c.desired_capacity, c.min_size, c.max_size, c.nodes.length]).toEqual([number, min, max, number]);
};
const holds = (check: (cluster: ClusterView) => void) => (ctx: RowContext) => check(after(ctx).cluster);

const rows: Row<Spec>[] = [
  { field: "desiredCapacity (1 -> 3) is one resize, EXACT_CAPACITY with the bounds", resource: "c", change: change({ desiredCapacity: 3 }), op: "update", calls: onId("ResizeCluster"), expect: resize(3, 1, 3) },
  { field: "maxSize (3 -> 5) is one resize", resource: "c", change: change({ maxSize: 5 }), op: "update", calls: onId("ResizeCluster"), expect: resize(3, 1, 5) },
  { field: "minSize (1 -> 2) is one resize", resource: "c", change: change({ minSize: 2 }), op: "update", calls: onId("ResizeCluster"), expect: resize(3, 2, 5) },
  {
    field: "all three sizes at once are still one resize",
    resource: "c",
    change: change({ minSize: 0, desiredCapacity: 1, maxSize: -1 }),
    op: "update",
    calls: onId("ResizeCluster"),
    expect: resize(1, 0, -1),
  },
  { field: "name is one PATCH", resource: "c", change: change({ name: "web-tier" }), op: "update", calls: onId("UpdateCluster"), expect: holds((c) => expect(c.name).toBe("web-tier")) },
  {
    field: "metadata is one PATCH that keeps the owner marker",
    resource: "c",
    change: change({ metadata: { team: "web" } }),
    op: "update",
    calls: onId("UpdateCluster"),
    expect: holds((c) => expect(c.metadata).toEqual({ team: "web", "clusterform.dev/owner": expect.stringMatching(/^[0-9a-f]{16}$/) })),
  },
  { field: "actionTimeout is one PATCH of Senlin's timeout, in seconds", resource: "c", change: change({ actionTimeout: "10m" }), op: "update", calls: onId("UpdateCluster"), expect: holds((c) => expect(c.timeout).toBe(600)) },
  {
    field: "config is one PATCH",
    resource: "c",
    change: change({ config: { "node.name.format": "web-$3I" } }),
    op: "update",
    calls: onId("UpdateCluster"),
    expect: holds((c) => expect(c.config).toEqual({ "node.name.format": "web-$3I" })),
  },
  {
    field: "profile is one PATCH (Senlin's rolling update)",
    resource: "c",
    change: change({ profile: "web-profile-2" }),
    op: "update",
    calls: onId("UpdateCluster"),
    expect: holds((c) => expect(c.profile_name).toBe("web-profile-2")),
  },
  { field: "profileOnly alone changes nothing", resource: "c", change: change({ profileOnly: true }), op: STATE_ONLY, calls: () => [], expect: same },
  { field: "timeouts change nothing on the platform", resource: "c", change: change({ timeouts: { update: "10m" } }), op: STATE_ONLY, calls: () => [], expect: same },
  { field: "name, metadata and actionTimeout together are still one PATCH", resource: "c", change: change({ name: "web", metadata: {}, actionTimeout: "15m" }), op: "update", calls: onId("UpdateCluster"), expect: same },
  {
    field: "a new policy is one policy_attach, the unchanged one untouched",
    resource: "c",
    change: change({ policies: [{ policy: "deletion" }, { policy: "affinity" }] }),
    op: "update",
    calls: onId("AttachClusterPolicy"),
    expect: holds((c) => expect(c.bindings.map((b) => b.enabled)).toEqual([true, true])),
  },
  {
    field: "the same policies in another order change nothing",
    resource: "c",
    change: change({ policies: [{ policy: "affinity" }, { policy: "deletion" }] }),
    op: STATE_ONLY,
    calls: () => [],
    expect: same,
  },
  {
    field: "a changed enabled is one policy_update",
    resource: "c",
    change: change({ policies: [{ policy: "affinity", enabled: false }, { policy: "deletion" }] }),
    op: "update",
    calls: onId("UpdateClusterPolicy"),
    expect: holds((c) => expect(c.bindings.map((b) => b.enabled).sort()).toEqual([false, true])),
  },
  {
    field: "a removed policy is one policy_detach",
    resource: "c",
    change: change({ policies: [{ policy: "affinity", enabled: false }] }),
    op: "update",
    calls: onId("DetachClusterPolicy"),
    expect: holds((c) => expect(c.bindings).toEqual([{ policy_id: expect.any(String), enabled: false }])),
  },
  {
    field: "a PATCH, a resize and a policy change together: in that order",
    resource: "c",
    change: change({ name: "web-2", desiredCapacity: 2, policies: [] }),
    op: "update",
    calls: onId("UpdateCluster", "ResizeCluster", "DetachClusterPolicy"),
    expect: same,
  },
];

fieldTable<Spec>({
  title: "senlin: each input field maps to Senlin's own operation",
  api: "senlin",
  base: (engine) => ({
    profile: "web-profile",
    minSize: 1,
    desiredCapacity: 1,
    maxSize: 3,
    policies: [{ policy: "deletion" }],
    ...(engine === "terraform" ? { name: "web-0" } : {}),
  }),
  resources: [{ key: "c", type: "senlin:Cluster", program: (spec) => ({ inputs: spec }) }],
  rows,
  plane: async () => {
    // A rolling update's cluster action ends a millisecond after its last node's: the clock must run.
    const plane = await planeWithConfig({ timeScale: 0, clock: runningClock() });
    for (const name of ["web-profile", "web-profile-2"]) {
      await makeFixture(plane.config, "senlin:Profile", { resourceName: name, name, spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } });
    }
    for (const name of ["deletion", "affinity"]) {
      const type = name === "affinity" ? "senlin.policy.affinity" : "senlin.policy.deletion";
      await makeFixture(plane.config, "senlin:Policy", { resourceName: name, name, spec: { type, version: "1.0", properties: {} } });
    }
    return plane;
  },
  observe: viewOf,
});
