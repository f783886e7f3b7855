import { expect } from "vitest";
import { type AdapterPlane, planeWithConfig } from "../testing";
import { CREATE_FIRST, fieldTable, NEW_IDENTITY, type PerEngine, type Row, type RowContext, STATE_ONLY } from "./testing";

// CycleCloud: each input field of a node pool maps to the platform's own calls, on the three
// engines; the nodes that exist afterwards. The pool `p` on the cluster `demo` (nodearray `execute`
// of VM sizes with 2 and 4 vCPUs, and `gpu`) or `other` (only `gpu`). Each row gives the pool's
// whole spec.

type Spec = Record<string, unknown>;

/** A node as GET /_local/cyclecloud/nodes shows it. */
interface Node {
  cluster: string;
  name: string;
  state: string;
  machineType: string;
  attributes: Record<string, unknown>;
  placementGroup: string;
}

const nodesOf = async (plane: AdapterPlane): Promise<Node[]> => ((await plane.t.http("GET", "/_local/cyclecloud/nodes")).body as { nodes: Node[] }).nodes;

/** The nodes after the apply are these (`cluster/name`), every one Ready. */
const nodes =
  (...expected: string[]) =>
  async ({ plane }: RowContext) => {
    const all = await nodesOf(plane);
    expect(all.map((n) => `${n.cluster}/${n.name}`).sort()).toEqual(expected);
    expect(all.map((n) => n.state)).toEqual(expected.map(() => "Ready"));
  };

/** The nodes after the apply are these (`cluster/name`), every one resting in `state` (a parked pool's). */
const nodesIn =
  (state: string, ...expected: string[]) =>
  async ({ plane }: RowContext) => {
    const all = await nodesOf(plane);
    expect(all.map((n) => `${n.cluster}/${n.name}:${n.state}`).sort()).toEqual(expected.map((e) => `${e}:${state}`));
  };

/** A replacement: the old nodes removed, the new ones created, on the clusters given. */
const replaced = (from: string, to = from) => () => ({ delete: [`RemoveNodes ${from}`], create: [`CreateNodes ${to}`] });

/**
 * Where the new nodes are created before the old ones are removed, the old nodes still hold their
 * names: the new pool's nodes take the next free ones.
 */
const byOrder = <T>(deleteFirst: T, createFirst: T, order: PerEngine<string>): PerEngine<T> => ({
  dynamic: order.dynamic === "create-first" ? createFirst : deleteFirst,
  pulumi: order.pulumi === "create-first" ? createFirst : deleteFirst,
  terraform: order.terraform === "create-first" ? createFirst : deleteFirst,
});

const rows: Row<Spec>[] = [
  {
    field: "count (2 -> 4) adds the difference in place",
    resource: "p",
    change: () => ({ count: 4 }),
    op: "update",
    calls: () => ["CreateNodes demo"],
    expect: nodes("demo/execute-1", "demo/execute-2", "demo/execute-3", "demo/execute-4"),
  },
  { field: "count (4 -> 1) removes the surplus in place", resource: "p", change: () => ({ count: 1 }), op: "update", calls: () => ["RemoveNodes demo"], expect: nodes("demo/execute-1") },
  {
    field: "coreCount (1 node -> 5 cores of 2 vCPUs) adds two nodes in place",
    resource: "p",
    change: () => ({ coreCount: 5 }),
    op: "update",
    calls: () => ["CreateNodes demo"],
    expect: nodes("demo/execute-1", "demo/execute-2", "demo/execute-3"),
  },
  {
    field: "powerState (running -> deallocated) deallocates the nodes in place",
    resource: "p",
    change: () => ({ coreCount: 5, powerState: "deallocated" }),
    op: "update",
    calls: () => ["DeallocateNodes demo"],
    expect: nodesIn("Deallocated", "demo/execute-1", "demo/execute-2", "demo/execute-3"),
  },
  {
    field: "powerState (deallocated -> off) shuts the nodes down in place (the nodearray's nodes are Fixed)",
    resource: "p",
    change: () => ({ coreCount: 5, powerState: "off" }),
    op: "update",
    calls: () => ["ShutdownNodes demo"],
    expect: nodesIn("Terminated", "demo/execute-1", "demo/execute-2", "demo/execute-3"),
  },
  {
    field: "powerState (off -> left out, running) starts the same nodes in place",
    resource: "p",
    change: () => ({ coreCount: 5 }),
    op: "update",
    calls: () => ["StartNodes demo"],
    expect: nodes("demo/execute-1", "demo/execute-2", "demo/execute-3"),
  },
  {
    field: "timeouts changes nothing on the platform",
    resource: "p",
    change: () => ({ coreCount: 5, timeouts: { update: "5m" } }),
    op: STATE_ONLY,
    calls: () => [],
    expect: nodes("demo/execute-1", "demo/execute-2", "demo/execute-3"),
  },
  {
    field: "machineType replaces, removing the old nodes first (the default order; the native plugin adds the new ones first: their request ids differ)",
    resource: "p",
    change: () => ({ coreCount: 5, machineType: "Standard_F4s_v2" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaced("demo"),
    expect: ({ engine, ...ctx }) => nodes(...byOrder(["demo/execute-1", "demo/execute-2"], ["demo/execute-4", "demo/execute-5"], NEW_IDENTITY)[engine])({ engine, ...ctx }),
  },
  { field: "nameFormat replaces", resource: "p", change: () => ({ count: 2, nameFormat: "w-%d" }), op: "replace", order: NEW_IDENTITY, calls: replaced("demo"), expect: nodes("demo/w-1", "demo/w-2") },
  {
    field: "nameOffset replaces",
    resource: "p",
    change: () => ({ count: 2, nameFormat: "w-%d", nameOffset: 10 }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaced("demo"),
    expect: nodes("demo/w-10", "demo/w-11"),
  },
  {
    field: "nodeAttributes replaces",
    resource: "p",
    change: () => ({ count: 2, nameFormat: "w-%d", nodeAttributes: { KeepAlive: true } }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaced("demo"),
    expect: nodes("demo/w-1", "demo/w-2"),
  },
  {
    field: "placementGroupId replaces",
    resource: "p",
    change: () => ({ count: 2, nameFormat: "w-%d", placementGroupId: "pg-1" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaced("demo"),
    expect: ({ engine, ...ctx }) => nodes(...byOrder(["demo/w-1", "demo/w-2"], ["demo/w-3", "demo/w-4"], NEW_IDENTITY)[engine])({ engine, ...ctx }),
  },
  { field: "nodearray replaces", resource: "p", change: () => ({ nodearray: "gpu", count: 1 }), op: "replace", order: NEW_IDENTITY, calls: replaced("demo"), expect: nodes("demo/gpu-1") },
  {
    field: "clusterName replaces: the pool moves to the other cluster",
    resource: "p",
    change: () => ({ clusterName: "other", nodearray: "gpu", count: 1 }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaced("demo", "other"),
    expect: nodes("other/gpu-1"),
  },
  {
    field: "a replacement with deleteBeforeReplace: false adds the new nodes first (its request ids differ; OpenTofu: create_before_destroy)",
    resource: "p",
    change: () => ({ clusterName: "other", nodearray: "gpu", count: 1, nameFormat: "g-%d", deleteBeforeReplace: false }),
    op: "replace",
    order: CREATE_FIRST,
    calls: replaced("other"),
    expect: nodes("other/g-1"),
  },
];

fieldTable<Spec>({
  title: "cyclecloud:NodePool: each input field maps to the platform's own calls",
  api: "cyclecloud",
  base: () => ({ count: 2 }),
  resources: [
    {
      key: "p",
      type: "cyclecloud:NodePool",
      program: ({ deleteBeforeReplace, clusterName, nodearray, ...spec }) => ({
        inputs: { clusterName: clusterName ?? "demo", nodearray: nodearray ?? "execute", ...spec },
        deleteBeforeReplace: deleteBeforeReplace as boolean | undefined,
      }),
    },
  ],
  rows,
  plane: async () => {
    const plane = await planeWithConfig({ timeScale: 0 });
    const admin = async (body: unknown) => expect((await plane.t.http("POST", "/_local/cyclecloud/clusters", body)).status).toBeLessThan(300);
    const gpu = { name: "gpu", machineType: "Standard_NC6", quota: 2 };
    const buckets = [
      { machineType: "Standard_F2s_v2", quota: 20 },
      { machineType: "Standard_F4s_v2", quota: 10 },
    ];
    // Fixed: terminated nodes keep their records, so `powerState: "off"` can be started again.
    await admin({ name: "demo", nodearrays: [{ name: "execute", buckets, fixed: true }, gpu] });
    await admin({ name: "other", nodearrays: [gpu] });
    return plane;
  },
  finally: {
    name: "gave the nodes what the fields asked: attributes, placement group and VM size",
    run: async (stack) => {
      stack.spec = { count: 1, machineType: "Standard_F4s_v2", nodeAttributes: { KeepAlive: true }, placementGroupId: "pg-2" };
      await stack.apply();
      const [node] = await nodesOf(stack.plane);
      expect([node.machineType, node.attributes.KeepAlive, node.placementGroup]).toEqual(["Standard_F4s_v2", true, "pg-2"]);
    },
  },
});
