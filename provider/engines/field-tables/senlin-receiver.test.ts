import { expect } from "vitest";
import { type AdapterPlane, makeFixture, planeWithConfig, runningClock } from "../testing";
import { fieldTable, NEW_IDENTITY, type Outputs, type Row, type RowContext, STATE_ONLY } from "./testing";

// A Senlin webhook receiver: each input maps to Senlin's own operation, on the three engines: the
// exact calls on the receiver's id, and what the receiver then holds. The program: two empty
// clusters (`c1`, `c2`) built from the plane's profile `web-profile`, and the receiver `r` on one
// of them. (A file of its own: two tables of one platform in one file would share their stack names,
// `<api>-<engine>`, by which the native plugin's one server of a file routes its requests.)

type Spec = Record<string, unknown>;

interface ReceiverSpec {
  /** The receiver's inputs, without its cluster. */
  r: Spec;
  /** Which cluster the receiver is on. */
  on: "c1" | "c2";
}

/** A receiver as GET /_local/senlin/receivers shows it. */
interface ReceiverView {
  id: string;
  name: string;
  cluster_id: string;
  action: string;
  params: Record<string, unknown>;
}

const receiversOf = async (plane: AdapterPlane): Promise<ReceiverView[]> => ((await plane.t.http("GET", "/_local/senlin/receivers")).body as { receivers: ReceiverView[] }).receivers;

/** The receiver after the apply: the same one (no row but the cluster's replaces it), the only one. */
function receiverAfter(ctx: RowContext): ReceiverView {
  const receivers = ctx.observed.after as ReceiverView[];
  expect(receivers.map((r) => r.id)).toEqual([ctx.before.r.id]);
  // Senlin keeps the URL through an update: the receiver runs its new action and params through it.
  expect(ctx.after.r.alarmUrl).toBe(ctx.before.r.alarmUrl);
  return receivers[0];
}

const onReceiver = (call: string) => (ctx: RowContext) => [`${call} ${ctx.before.r.id}`];
const receiverChange = (fields: Spec) => (spec: ReceiverSpec): ReceiverSpec => ({ ...spec, r: { ...spec.r, ...fields } });
const receiverHolds = (check: (r: ReceiverView) => void) => (ctx: RowContext) => check(receiverAfter(ctx));

const receiverRows: Row<ReceiverSpec>[] = [
  { field: "receiver name is one PATCH", resource: "r", change: receiverChange({ name: "scaler" }), op: "update", calls: onReceiver("UpdateReceiver"), expect: receiverHolds((r) => expect(r.name).toBe("scaler")) },
  {
    field: "receiver action is one PATCH",
    resource: "r",
    change: receiverChange({ action: "CLUSTER_SCALE_IN" }),
    op: "update",
    calls: onReceiver("UpdateReceiver"),
    expect: receiverHolds((r) => expect(r.action).toBe("CLUSTER_SCALE_IN")),
  },
  {
    field: "receiver params are one PATCH",
    resource: "r",
    change: receiverChange({ params: { count: 2 } }),
    op: "update",
    calls: onReceiver("UpdateReceiver"),
    expect: receiverHolds((r) => expect(r.params).toEqual({ count: 2 })),
  },
  {
    field: "receiver action and params together are still one PATCH",
    resource: "r",
    change: receiverChange({ action: "CLUSTER_RESIZE", params: { adjustment_type: "CHANGE_IN_CAPACITY", number: 1 } }),
    op: "update",
    calls: onReceiver("UpdateReceiver"),
    expect: receiverHolds((r) => expect([r.action, r.params]).toEqual(["CLUSTER_RESIZE", { adjustment_type: "CHANGE_IN_CAPACITY", number: 1 }])),
  },
  { field: "receiver timeouts change nothing on the platform", resource: "r", change: receiverChange({ timeouts: { update: "10m" } }), op: STATE_ONLY, calls: () => [], expect: (ctx) => void receiverAfter(ctx) },
  {
    field: "receiver cluster replaces it: a new receiver, a new URL",
    resource: "r",
    change: (spec) => ({ ...spec, on: "c2" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: (ctx) => ({ delete: [`DeleteReceiver ${ctx.before.r.id}`], create: [`CreateReceiver ${ctx.after.r.name}`] }),
    expect: (ctx) => {
      const receivers = ctx.observed.after as ReceiverView[];
      expect(receivers.map((r) => [r.id, r.cluster_id])).toEqual([[ctx.after.r.id, ctx.after.c2.id]]);
      expect(ctx.after.r.alarmUrl).not.toBe(ctx.before.r.alarmUrl);
      expect(ctx.after.r.alarmUrl).toBe(`${ctx.plane.t.plane.url}/v1/webhooks/${ctx.after.r.id}/trigger?V=2&adjustment_type=CHANGE_IN_CAPACITY&number=1`);
    },
  },
];

const emptyCluster = (name: string) => (_spec: ReceiverSpec, _outputs: Outputs, engine: string) => ({
  inputs: { profile: "web-profile", minSize: 0, desiredCapacity: 0, maxSize: 2, ...(engine === "terraform" ? { name } : {}) },
});

fieldTable<ReceiverSpec>({
  title: "senlin: each input field of a receiver maps to Senlin's own operation",
  api: "senlin",
  base: (engine) => ({ on: "c1", r: { action: "CLUSTER_SCALE_OUT", params: { count: 1 }, ...(engine === "terraform" ? { name: "hook-0" } : {}) } }),
  resources: [
    { key: "c1", type: "senlin:Cluster", program: emptyCluster("hooked-1") },
    { key: "c2", type: "senlin:Cluster", program: emptyCluster("hooked-2") },
    { key: "r", type: "senlin:Receiver", program: (spec, outputs) => ({ inputs: { ...spec.r, cluster: outputs[spec.on].id } }) },
  ],
  rows: receiverRows,
  plane: async () => {
    const plane = await planeWithConfig({ timeScale: 0, clock: runningClock() });
    await makeFixture(plane.config, "senlin:Profile", { resourceName: "web-profile", name: "web-profile", spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } });
    return plane;
  },
  observe: receiversOf,
});
