import { expect } from "vitest";
import { type AdapterPlane, auditEntries, planeWithConfig } from "../testing";
import { DELETE_FIRST, fieldTable, NEW_IDENTITY, type Outputs, type Row, type RowContext, STATE_ONLY } from "./testing";

// vcluster: each input field of a vcluster and a snapshot of it maps to the platform's own
// operation, on the three engines: the exact calls (reads and watches left out) and the update_mask
// of every UpdateVCluster the apply sent. The program: the vcluster `main` (`team-a/ft`) and the
// snapshot `snap` of it. A replaced vcluster takes its snapshot along (the snapshot reads its name).

type Props = Record<string, unknown>;

interface Spec {
  vc: Props;
  snapshot: Props;
}

/** An UpdateVCluster's update_mask as GET /_local/vcluster/update-masks shows it. */
interface UpdateMask {
  namespace: string;
  name: string;
  paths: string[];
}

const masksOf = async (plane: AdapterPlane): Promise<UpdateMask[]> => ((await plane.t.http("GET", "/_local/vcluster/update-masks")).body as { updates: UpdateMask[] }).updates;

/** The masks of the UpdateVCluster calls the apply sent are these, in order. */
const masked =
  (...paths: string[][]) =>
  ({ observed }: RowContext) => {
    const before = observed.before as UpdateMask[];
    expect((observed.after as UpdateMask[]).slice(before.length).map((m) => m.paths)).toEqual(paths);
  };

/** The suspend options the rows set: a drain of at most 30 s after a named snapshot. */
const PAUSE = { drainWorkloads: true, drainTimeout: "30s", createSnapshot: true, snapshotName: "ft-pause" };

/** The request of the last audited vcluster call of `operation`. */
async function lastRequest(plane: AdapterPlane, operation: string): Promise<unknown> {
  return (await auditEntries(plane.t, "vcluster", 0)).filter((e) => e.operation === operation).at(-1)?.request;
}

const at = (namespace: string, name: string) => `${namespace}/${name}`;
const vc = (change: Props) => (s: Spec): Spec => ({ ...s, vc: { ...s.vc, ...change } });
const snap = (change: Props) => (s: Spec): Spec => ({ ...s, snapshot: { ...s.snapshot, ...change } });

/** One call on `team-a/ft`, the masks given (none for a call other than UpdateVCluster). */
const onA = (operation: string) => () => [`${operation} ${at("team-a", "ft")}`];
const replaceMain = (before: [string, string], after = before) => () => ({ delete: [`DeleteVCluster ${at(...before)}`], create: [`CreateVCluster ${at(...after)}`] });
const snapshotId = (o: Outputs) => String(o.snap.snapshotId);

const rows: Row<Spec>[] = [
  { field: "kubernetesVersion: one UpdateVCluster", resource: "main", change: vc({ kubernetesVersion: "1.29.0" }), op: "update", calls: onA("UpdateVCluster"), expect: masked(["spec.kubernetes_version"]) },
  { field: "enableHa: one UpdateVCluster", resource: "main", change: vc({ enableHa: true }), op: "update", calls: onA("UpdateVCluster"), expect: masked(["spec.enable_ha"]) },
  { field: "helmValues: one UpdateVCluster", resource: "main", change: vc({ helmValues: "syncer:\n  extraArgs: []\n" }), op: "update", calls: onA("UpdateVCluster"), expect: masked(["spec.helm_values"]) },
  {
    field: "sync: one UpdateVCluster",
    resource: "main",
    change: vc({ sync: { syncNodes: true, customResources: ["certificates.cert-manager.io"] } }),
    op: "update",
    calls: onA("UpdateVCluster"),
    expect: masked(["spec.sync"]),
  },
  {
    field: "plugins: one UpdateVCluster",
    resource: "main",
    change: vc({ plugins: [{ name: "hooks", version: "0.1.0", enabled: true }] }),
    op: "update",
    calls: onA("UpdateVCluster"),
    expect: masked(["spec.plugins"]),
  },
  {
    field: "ingress: one UpdateVCluster",
    resource: "main",
    change: vc({ ingress: { enabled: true, hostname: "ft.example.com" } }),
    op: "update",
    calls: onA("UpdateVCluster"),
    expect: masked(["spec.ingress"]),
  },
  {
    field: "serviceAccount: one UpdateVCluster",
    resource: "main",
    change: vc({ serviceAccount: { name: "vc-ft", automountToken: true } }),
    op: "update",
    calls: onA("UpdateVCluster"),
    expect: masked(["spec.service_account"]),
  },
  { field: "labels: in place by UpdateVCluster", resource: "main", change: vc({ labels: { env: "dev" } }), op: "update", calls: onA("UpdateVCluster"), expect: masked(["labels"]) },
  {
    field: "several UpdateVCluster fields at once: one call whose mask names exactly those",
    resource: "main",
    change: vc({ kubernetesVersion: "1.30.2", labels: { env: "prod" }, enableHa: false }),
    op: "update",
    calls: onA("UpdateVCluster"),
    expect: masked(["spec.kubernetes_version", "spec.enable_ha", "labels"]),
  },
  { field: "replicas: ScaleVCluster", resource: "main", change: vc({ replicas: 3 }), op: "update", calls: onA("ScaleVCluster"), expect: masked() },
  { field: "resources: ScaleVCluster", resource: "main", change: vc({ resources: { cpuRequest: "500m", memoryLimit: "1Gi" } }), op: "update", calls: onA("ScaleVCluster"), expect: masked() },
  { field: "suspendOptions alone: nothing on the platform", resource: "main", change: vc({ suspendOptions: PAUSE }), op: STATE_ONLY, calls: () => [], expect: masked() },
  {
    field: "suspended true: SuspendVCluster, with the drain and snapshot of suspendOptions",
    resource: "main",
    change: vc({ suspended: true }),
    op: "update",
    calls: onA("SuspendVCluster"),
    expect: async (ctx) => {
      masked()(ctx);
      expect(await lastRequest(ctx.plane, "SuspendVCluster")).toEqual({
        name: "ft",
        namespace: "team-a",
        drainWorkloads: true,
        drainTimeoutSeconds: 30,
        createSnapshot: true,
        snapshotName: "ft-pause",
      });
      const { snapshots } = (await ctx.plane.t.http("GET", "/_local/vcluster/snapshots")).body as { snapshots: { name: string; status: string }[] };
      expect(snapshots.filter((s) => s.name === "ft-pause").map((s) => s.status)).toEqual(["READY"]);
    },
  },
  { field: "suspended false: ResumeVCluster", resource: "main", change: vc({ suspended: false }), op: "update", calls: onA("ResumeVCluster"), expect: masked() },
  { field: "timeouts: nothing on the platform", resource: "main", change: vc({ timeouts: { update: "5m" } }), op: STATE_ONLY, calls: () => [], expect: masked() },
  { field: "restoreFrom after creation: nothing on the platform", resource: "main", change: vc({ restoreFrom: "snap-0-0" }), op: STATE_ONLY, calls: () => [], expect: masked() },
  // restoreFrom is used at creation: the replacements below would restore from it, so it goes.
  {
    field: "distro: replace, deleting first",
    resource: "main",
    change: vc({ distro: "k8s", restoreFrom: undefined }),
    op: "replace",
    order: DELETE_FIRST,
    calls: replaceMain(["team-a", "ft"]),
    expect: masked(),
  },
  {
    field: "network: replace",
    resource: "main",
    change: vc({ network: { podCidr: "10.42.0.0/16", serviceCidr: "10.96.0.0/12" } }),
    op: "replace",
    order: DELETE_FIRST,
    calls: replaceMain(["team-a", "ft"]),
    expect: masked(),
  },
  {
    field: "storage: replace",
    resource: "main",
    change: vc({ storage: { enablePersistence: true, persistenceSize: "5Gi" } }),
    op: "replace",
    order: DELETE_FIRST,
    calls: replaceMain(["team-a", "ft"]),
    expect: masked(),
  },
  { field: "isolationMode: replace", resource: "main", change: vc({ isolationMode: "lite" }), op: "replace", order: DELETE_FIRST, calls: replaceMain(["team-a", "ft"]), expect: masked() },
  // The definition key of the vcluster's owner; Pulumi's `owner`, OpenTofu's `vcluster_owner`.
  { field: "owner: replace", resource: "main", change: vc({ vclusterOwner: "alice" }), op: "replace", order: DELETE_FIRST, calls: replaceMain(["team-a", "ft"]), expect: masked() },
  { field: "project: replace", resource: "main", change: vc({ project: "web" }), op: "replace", order: DELETE_FIRST, calls: replaceMain(["team-a", "ft"]), expect: masked() },
  {
    field: "namespace: replace (deleting first, but on the native plugin: another identity)",
    resource: "main",
    change: vc({ namespace: "team-b" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaceMain(["team-a", "ft"], ["team-b", "ft"]),
    expect: masked(),
  },
  {
    field: "name: replace (deleting first, but on the native plugin: another identity)",
    resource: "main",
    change: vc({ name: "ft2" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: replaceMain(["team-b", "ft"], ["team-b", "ft2"]),
    expect: masked(),
  },
  ...(
    [
      ["description", { description: "nightly" }],
      ["retentionHours", { retentionHours: 48 }],
      ["labels", { labels: { kind: "nightly" } }],
      ["includeWorkloads", { includeWorkloads: true }],
      ["name", { name: "s2" }],
    ] as const
  ).map(
    ([field, change]): Row<Spec> => ({
      // A new name is another identity: the native plugin creates the new snapshot first.
      field: `Snapshot.${field}: replace, deleting first${field === "name" ? " (but on the native plugin: another identity)" : ""}`,
      resource: "snap",
      change: snap(change),
      op: "replace",
      order: field === "name" ? NEW_IDENTITY : DELETE_FIRST,
      calls: ({ before }) => ({ delete: [`DeleteSnapshot ${snapshotId(before)}`], create: [`SnapshotVCluster ${at("team-b", "ft2")}`] }),
      expect: masked(),
    }),
  ),
];

fieldTable<Spec>({
  title: "vcluster: each input field maps to the platform's own operation",
  api: "vcluster",
  base: () => ({ vc: { namespace: "team-a", name: "ft" }, snapshot: { name: "s1" } }),
  resources: [
    { key: "main", type: "vcluster:VCluster", program: ({ vc: inputs }) => ({ inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined)) }) },
    { key: "snap", type: "vcluster:Snapshot", program: ({ vc: v, snapshot }, o) => ({ inputs: { vclusterName: String(o.main.name), namespace: v.namespace, ...snapshot } }) },
  ],
  rows,
  // A vcluster's replacement takes its snapshot along; the snapshot's calls are not the row's.
  along: (row) => (row.resource === "main" && row.op === "replace" ? ["snap"] : []),
  ownCall: (row, entry) => row.resource === "snap" || row.op !== "replace" || !/Snapshot/.test(entry.operation),
  observe: masksOf,
  plane: () => planeWithConfig({ timeScale: 0 }),
});
