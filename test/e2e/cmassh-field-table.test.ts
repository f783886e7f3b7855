import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps, type StepRecord } from "../harness/engine";
import { mutations } from "../harness/local-plane";

/** Names the stack has now: `main` and `other` clusters, pool `p`. */
interface Names {
  main: string;
  other: string;
  pool: string;
}

/**
 * One row per input field: the change, the step kind preview must show for the resource, and the
 * exact mutating API calls (GetCluster polls left out) the `up` must make, in order.
 */
interface Row {
  field: string;
  resource: "main" | "p";
  change: Record<string, unknown>;
  op: "update" | "replace" | "same";
  calls: (before: Names, after: Names) => string[];
}

const base = {
  withOther: true,
  version: "1.30.10",
  controlPlane: { instanceType: "standard", count: 1 },
  pools: { p: { count: 2, instanceType: "standard" } },
};

const pool = (spec: Record<string, unknown>) => ({ pools: { p: { count: 5, instanceType: "standard", ...spec } } });

const rows: Row[] = [
  {
    field: "NodePool.count (2 -> 5) scales in place",
    resource: "p",
    change: pool({}),
    op: "update",
    calls: (b) => [`ScaleNodePool ${b.main}/${b.pool}`],
  },
  {
    field: "NodePool.timeouts changes nothing on the platform",
    resource: "p",
    change: pool({ timeouts: { create: "15m" } }),
    op: "same",
    calls: () => [],
  },
  {
    field: "NodePool.instanceType replaces, deleting the old pool before adding the new (the default order)",
    resource: "p",
    change: pool({ instanceType: "gpu" }),
    op: "replace",
    calls: (b, a) => [`DeleteNodePool ${b.main}/${b.pool}`, `AddNodePool ${a.main}/${a.pool}`],
  },
  {
    field: "NodePool.labels with deleteBeforeReplace: false replaces, adding the new pool first (the derived name changes)",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, deleteBeforeReplace: false }),
    op: "replace",
    calls: (b, a) => [`AddNodePool ${a.main}/${a.pool}`, `DeleteNodePool ${b.main}/${b.pool}`],
  },
  {
    field: "NodePool.name replaces, deleting first",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool" }),
    op: "replace",
    calls: (b, a) => [`DeleteNodePool ${b.main}/${b.pool}`, `AddNodePool ${a.main}/batch-pool`],
  },
  {
    field: "NodePool.clusterName replaces: the pool moves to the other cluster",
    resource: "p",
    change: pool({ instanceType: "gpu", labels: { tier: "batch" }, name: "batch-pool", cluster: "other" }),
    op: "replace",
    calls: (b) => [`DeleteNodePool ${b.main}/batch-pool`, `AddNodePool ${b.other}/batch-pool`],
  },
  {
    field: "Cluster.kubernetesVersion upgrades in place",
    resource: "main",
    change: { version: "1.31.6" },
    op: "update",
    calls: (b) => [`GetUpgradeClusterInformation ${b.main}`, `UpgradeCluster ${b.main}`],
  },
  {
    field: "Cluster.timeouts changes nothing on the platform",
    resource: "main",
    change: { clusterTimeouts: { update: "1h" } },
    op: "same",
    calls: () => [],
  },
  {
    field: "Cluster.controlPlane.count replaces, deleting the old cluster first",
    resource: "main",
    change: { controlPlane: { instanceType: "standard", count: 3 } },
    op: "replace",
    calls: (b, a) => [`DeleteCluster ${b.main}`, `CreateCluster ${a.main}`],
  },
  {
    field: "Cluster.controlPlane.instanceType replaces",
    resource: "main",
    change: { controlPlane: { instanceType: "gpu", count: 3 } },
    op: "replace",
    calls: (b, a) => [`DeleteCluster ${b.main}`, `CreateCluster ${a.main}`],
  },
  {
    field: "Cluster.controlPlane.labels with deleteBeforeReplace: false replaces, creating the new cluster first",
    resource: "main",
    change: { controlPlane: { instanceType: "gpu", count: 3, labels: { team: "ml" } }, clusterDeleteBeforeReplace: false },
    op: "replace",
    calls: (b, a) => [`CreateCluster ${a.main}`, `DeleteCluster ${b.main}`],
  },
  {
    field: "Cluster.name replaces, deleting first",
    resource: "main",
    change: { clusterName: "main-explicit", clusterDeleteBeforeReplace: undefined },
    op: "replace",
    calls: (b) => [`DeleteCluster ${b.main}`, `CreateCluster main-explicit`],
  },
  {
    field: "Cluster.controlPlane with a user-chosen name replaces, deleting first",
    resource: "main",
    change: { controlPlane: { instanceType: "standard", count: 1 } },
    op: "replace",
    calls: () => [`DeleteCluster main-explicit`, `CreateCluster main-explicit`],
  },
];

function stepOf(steps: StepRecord[], name: string): StepRecord | undefined {
  const mine = changingSteps({ steps, outputs: {}, stdout: "" }).filter((s) => s.name === name);
  // A replacement shows as create-replacement + replace + delete-replaced; report it as one replace.
  if (mine.some((s) => s.op === "replace")) return mine.find((s) => s.op === "replace");
  return mine[0];
}

describe("cma-ssh: each input field maps to the platform's own operation", () => {
  let t: CmasshStack;
  let names: Names;

  const readNames = async (): Promise<Names> => {
    const out = await t.stack.stack.outputs();
    const clusters = await t.plane.cmasshClusters();
    const main = String(out.clusterName.value);
    return {
      main,
      other: clusters.map((c) => c.name).find((n) => n !== main && n.startsWith("other")) ?? "",
      pool: (out.poolNames.value as Record<string, string>).p,
    };
  };

  beforeAll(async () => {
    t = await openCmasshStack({ timeScale: 0.1 });
    await t.configure(base);
    await t.stack.up();
    names = await readNames();
  });
  afterAll(async () => {
    await t?.stack.destroy();
    await t?.plane.stop();
  });

  it.each(rows)("$field", async (row) => {
    await t.configure(row.change);
    const preview = await t.stack.preview();
    const step = stepOf(preview.steps, row.resource);
    expect(step?.op ?? "same").toBe(row.op);

    const since = await t.plane.lastSeq();
    await t.stack.up();
    const after = await readNames();
    expect(mutations(await t.plane.audit(since))).toEqual(row.calls(names, after));
    names = after;
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });
});
