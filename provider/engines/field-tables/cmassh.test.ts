import { expect } from "vitest";
import { planeWithConfig, runningClock } from "../testing";
import { CREATE_FIRST, DELETE_FIRST, fieldTable, NEW_IDENTITY, type Outputs, type Row, STATE_ONLY } from "./testing";

// cma-ssh: each input field of a cluster and a node pool maps to the platform's own operation, on
// the three engines. The program: the cluster `main`, a second cluster `other`, and the pool `p` on
// one of them. In HCL a name is required (Terraform gives a provider no resource address to derive
// one from): there the clusters are `main` and `other`, the pool `p`.

interface Pool {
  count: number;
  instanceType: string;
  labels?: Record<string, string>;
  name?: string;
  cluster?: "other";
  timeouts?: Record<string, string>;
  deleteBeforeReplace?: boolean;
}

interface Spec {
  version: string;
  controlPlane: { instanceType: string; count: number; labels?: Record<string, string> };
  clusterName?: string;
  clusterTimeouts?: Record<string, string>;
  clusterDeleteBeforeReplace?: boolean;
  pool: Pool;
}

const defined = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
const tofu = (engine: string, name: string) => (engine === "terraform" ? name : undefined);

/** A new pool spec, count 5 on top of the change (each pool row gives the whole spec). */
const pool = (spec: Partial<Pool>) => (s: Spec): Spec => ({ ...s, pool: { count: 5, instanceType: "standard", ...spec } });
/** Cluster fields on top of the spec before. */
const cluster = (change: Partial<Spec>) => (s: Spec): Spec => ({ ...s, ...change });

const mainName = (o: Outputs) => String(o.main.name);
const otherName = (o: Outputs) => String(o.other.name);
const poolName = (o: Outputs) => String(o.p.name);
const poolCluster = (o: Outputs) => String(o.p.clusterName);

const rows: Row<Spec>[] = [
  {
    field: "NodePool.count (2 -> 5) scales in place",
    resource: "p",
    change: pool({}),
    op: "update",
    calls: ({ before }) => [`ScaleNodePool ${mainName(before)}/${poolName(before)}`],
  },
  {
    field: "NodePool.timeouts changes nothing on the platform",
    resource: "p",
    change: pool({ timeouts: { create: "15m" } }),
    op: STATE_ONLY,
    calls: () => [],
  },
  {
    field: "NodePool.instanceType replaces (deleting the old pool first, but on the native plugin: the derived name changes)",
    resource: "p",
    change: pool({ instanceType: "gpu" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`DeleteNodePool ${mainName(before)}/${poolName(before)}`], create: [`AddNodePool ${mainName(after)}/${poolName(after)}`] }),
  },
  {
    field: "NodePool.labels with deleteBeforeReplace: false replaces, adding the new pool first (the derived name changes; OpenTofu: create_before_destroy and a new name)",
    resource: "p",
    change: (s, engine) => pool({ instanceType: "gpu", labels: { tier: "batch" }, deleteBeforeReplace: false, name: tofu(engine, "p-batch") })(s),
    op: "replace",
    order: CREATE_FIRST,
    calls: ({ before, after }) => ({ delete: [`DeleteNodePool ${mainName(before)}/${poolName(before)}`], create: [`AddNodePool ${mainName(after)}/${poolName(after)}`] }),
  },
  {
    field: "NodePool.name replaces (deleting first, but on the native plugin: another name)",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`DeleteNodePool ${mainName(before)}/${poolName(before)}`], create: [`AddNodePool ${mainName(after)}/batch-pool`] }),
  },
  {
    field: "NodePool.clusterName replaces: the pool moves to the other cluster (deleting first, but on the native plugin: another identity)",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool", cluster: "other" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before }) => ({ delete: [`DeleteNodePool ${mainName(before)}/batch-pool`], create: [`AddNodePool ${otherName(before)}/batch-pool`] }),
    expect: ({ after }) => expect(poolCluster(after)).toBe(otherName(after)),
  },
  {
    field: "Cluster.kubernetesVersion upgrades in place",
    resource: "main",
    change: cluster({ version: "1.31.6" }),
    op: "update",
    calls: ({ before }) => [`GetUpgradeClusterInformation ${mainName(before)}`, `UpgradeCluster ${mainName(before)}`],
  },
  {
    field: "Cluster.timeouts changes nothing on the platform",
    resource: "main",
    change: cluster({ clusterTimeouts: { update: "1h" } }),
    op: STATE_ONLY,
    calls: () => [],
  },
  {
    field: "Cluster.controlPlane.count replaces (deleting the old cluster first, but on the native plugin: the derived name changes)",
    resource: "main",
    change: cluster({ controlPlane: { instanceType: "standard", count: 3 } }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`DeleteCluster ${mainName(before)}`], create: [`CreateCluster ${mainName(after)}`] }),
  },
  {
    field: "Cluster.controlPlane.instanceType replaces",
    resource: "main",
    change: cluster({ controlPlane: { instanceType: "gpu", count: 3 } }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`DeleteCluster ${mainName(before)}`], create: [`CreateCluster ${mainName(after)}`] }),
  },
  {
    field: "Cluster.controlPlane.labels with deleteBeforeReplace: false replaces, creating the new cluster first (OpenTofu: create_before_destroy and a new name)",
    resource: "main",
    change: (s, engine) => ({ ...s, controlPlane: { instanceType: "gpu", count: 3, labels: { team: "ml" } }, clusterDeleteBeforeReplace: false, clusterName: tofu(engine, "main-ml") }),
    op: "replace",
    order: CREATE_FIRST,
    calls: ({ before, after }) => ({ delete: [`DeleteCluster ${mainName(before)}`], create: [`CreateCluster ${mainName(after)}`] }),
  },
  {
    field: "Cluster.name replaces (deleting first, but on the native plugin: another name)",
    resource: "main",
    change: cluster({ clusterName: "main-explicit", clusterDeleteBeforeReplace: undefined }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before }) => ({ delete: [`DeleteCluster ${mainName(before)}`], create: ["CreateCluster main-explicit"] }),
  },
  {
    field: "Cluster.controlPlane with a user-chosen name replaces, deleting first on every engine",
    resource: "main",
    change: cluster({ controlPlane: { instanceType: "standard", count: 1 } }),
    op: "replace",
    order: DELETE_FIRST,
    calls: () => ({ delete: ["DeleteCluster main-explicit"], create: ["CreateCluster main-explicit"] }),
  },
];

fieldTable<Spec>({
  title: "cma-ssh: each input field maps to the platform's own operation",
  api: "cmassh",
  base: () => ({ version: "1.30.10", controlPlane: { instanceType: "standard", count: 1 }, pool: { count: 2, instanceType: "standard" } }),
  resources: [
    {
      key: "main",
      type: "cmassh:Cluster",
      program: (s, _o, engine) => ({
        inputs: defined({ name: s.clusterName ?? tofu(engine, "main"), kubernetesVersion: s.version, controlPlane: s.controlPlane, timeouts: s.clusterTimeouts }),
        deleteBeforeReplace: s.clusterDeleteBeforeReplace,
      }),
    },
    {
      key: "other",
      type: "cmassh:Cluster",
      program: (_s, _o, engine) => ({ inputs: defined({ name: tofu(engine, "other"), kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } }) }),
    },
    {
      key: "p",
      type: "cmassh:NodePool",
      program: ({ pool: p }, o, engine) => ({
        inputs: defined({
          clusterName: p.cluster === "other" ? otherName(o) : mainName(o),
          name: p.name ?? tofu(engine, "p"),
          instanceType: p.instanceType,
          count: p.count,
          labels: p.labels,
          timeouts: p.timeouts,
        }),
        deleteBeforeReplace: p.deleteBeforeReplace,
      }),
    },
  ],
  rows,
  // cma-ssh trusts a RUNNING status it saw follow the operation's own at once, else only after 3 s
  // (kinds/cmassh/common.ts): operations of a few hundred milliseconds, on a clock that runs.
  plane: () => planeWithConfig({ timeScale: 0.1, clock: runningClock() }),
});
