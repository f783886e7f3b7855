import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type RunResult, resourceSteps } from "../harness/engine";
import { type AuditEntry, writes } from "../harness/local-plane";
import { expectPlannedAsAudited, isPlannable, previewStep } from "../harness/planned";
import { openSenlinStack, type SenlinStack } from "../harness/senlin-stack";
import { CC_PASSWORD, ccAdmin } from "./cyclecloud-support";

/*
 * The field tables on the real Pulumi engine, a few representative rows per platform: an in-place
 * change and a replacement or a change no call carries out, through the dynamic SDK's own program
 * (the resource option deleteBeforeReplace, the engine's step order, the preview's steps and the
 * plan `clusterform plan` reads from them). Every field of every kind runs on the three engines in
 * process (provider/engines/field-tables); these rows keep the in-process drivers honest. One stack
 * holds an object of each platform (programs/field-rows), so round r applies row r of every
 * platform in one configure, one preview and one up.
 */

type Spec = Record<string, unknown>;
type Outputs = Record<string, unknown>;

interface Row {
  field: string;
  /** The platform's spec after this row. */
  spec: Spec;
  /** The resource the change is for. */
  resource: string;
  op: "update" | "replace" | "same";
  /** The platform's calls of the up (reads left out), in order, from the outputs before and after it. */
  calls: (before: Outputs, after: Outputs) => string[];
  /** The update_mask of every UpdateVCluster the up sent (vcluster only). */
  masks?: string[][];
}

interface Platform {
  api: string;
  /** The platform's resources in the program. */
  resources: string[];
  base: Spec;
  rows: Row[];
}

const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } };
const pelotonBase = { pool: { resources: [{ kind: "cpu", reservation: 4, limit: 100 }] }, job: { instanceCount: 2, defaultSpec: { containers: [container] }, updatePolicy: { batchSize: 2 } } };
const senlinBase = { profile: "web-profile", minSize: 1, desiredCapacity: 1, maxSize: 3, policies: [{ policy: "deletion" }] };
const vclusterBase = { vc: { namespace: "team-a", name: "ft" }, snapshot: { name: "s1" } };

const PLATFORMS: Record<string, Platform> = {
  cmassh: {
    api: "cmassh",
    resources: ["main", "p"],
    base: { pool: { instanceType: "standard", count: 2 } },
    rows: [
      {
        field: "cma-ssh NodePool.count (2 -> 5) scales in place",
        spec: { pool: { instanceType: "standard", count: 5 } },
        resource: "p",
        op: "update",
        calls: (b) => [`ScaleNodePool ${b.cmasshCluster}/${b.cmasshPool}`],
      },
      {
        field: "cma-ssh NodePool.labels with deleteBeforeReplace: false replaces, adding the new pool first (the derived name changes)",
        spec: { pool: { instanceType: "standard", count: 5, labels: { tier: "batch" }, deleteBeforeReplace: false } },
        resource: "p",
        op: "replace",
        calls: (b, a) => [`AddNodePool ${a.cmasshCluster}/${a.cmasshPool}`, `DeleteNodePool ${b.cmasshCluster}/${b.cmasshPool}`],
      },
    ],
  },
  cyclecloud: {
    api: "cyclecloud",
    resources: ["nodes"],
    base: { count: 2 },
    rows: [
      { field: "CycleCloud NodePool.count (2 -> 4) adds the difference in place", spec: { count: 4 }, resource: "nodes", op: "update", calls: () => ["CreateNodes demo"] },
      {
        field: "CycleCloud NodePool.machineType replaces, removing the old nodes first (the SDK's default order)",
        spec: { count: 2, machineType: "Standard_F4s_v2" },
        resource: "nodes",
        op: "replace",
        calls: () => ["RemoveNodes demo", "CreateNodes demo"],
      },
    ],
  },
  senlin: {
    api: "senlin",
    resources: ["web"],
    base: senlinBase,
    rows: [
      {
        field: "Senlin Cluster.desiredCapacity (1 -> 3) is one resize",
        spec: { ...senlinBase, desiredCapacity: 3 },
        resource: "web",
        op: "update",
        calls: (b) => [`ResizeCluster ${b.senlinId}`],
      },
      { field: "Senlin Cluster.profileOnly alone shows no step and calls nothing", spec: { ...senlinBase, desiredCapacity: 3, profileOnly: true }, resource: "web", op: "same", calls: () => [] },
    ],
  },
  peloton: {
    api: "peloton",
    resources: ["compute", "job"],
    base: pelotonBase,
    rows: [
      {
        field: "Peloton ResourcePool.name renames in place",
        spec: { ...pelotonBase, pool: { ...pelotonBase.pool, name: "compute-renamed" } },
        resource: "compute",
        op: "update",
        calls: (b) => [`UpdateResourcePool ${b.poolId}`],
      },
      {
        field: "Peloton StatelessJob.restartNonce is one RestartJob",
        spec: { pool: { ...pelotonBase.pool, name: "compute-renamed" }, job: { ...pelotonBase.job, restartNonce: "1" } },
        resource: "job",
        op: "update",
        calls: (b) => [`RestartJob ${b.jobId}`],
      },
    ],
  },
  vcluster: {
    api: "vcluster",
    resources: ["ft", "snap"],
    base: vclusterBase,
    rows: [
      {
        field: "vcluster VCluster.kubernetesVersion is one UpdateVCluster naming only that field",
        spec: { ...vclusterBase, vc: { ...vclusterBase.vc, kubernetesVersion: "1.29.0" } },
        resource: "ft",
        op: "update",
        calls: () => ["UpdateVCluster team-a/ft"],
        masks: [["spec.kubernetes_version"]],
      },
      {
        field: "vcluster Snapshot.description replaces, deleting first",
        spec: { vc: { ...vclusterBase.vc, kubernetesVersion: "1.29.0" }, snapshot: { ...vclusterBase.snapshot, description: "nightly" } },
        resource: "snap",
        op: "replace",
        calls: (b) => [`DeleteSnapshot ${b.snapshotId}`, "SnapshotVCluster team-a/ft"],
      },
    ],
  },
};

const ROUNDS = Math.max(...Object.values(PLATFORMS).map((p) => p.rows.length));

/** Every platform's spec after round r (its base before round 0). */
const specsAfter = (round: number): Record<string, Spec> =>
  Object.fromEntries(Object.entries(PLATFORMS).map(([key, p]) => [key, round < 0 ? p.base : (p.rows[Math.min(round, p.rows.length - 1)]?.spec ?? p.base)]));

interface UpdateMask {
  paths: string[];
}

/** What one round did. */
interface RoundRun {
  preview: RunResult;
  before: Outputs;
  after: Outputs;
  audit: AuditEntry[];
  masks: UpdateMask[];
  /** The preview right after the up: nothing is left to do. */
  again: RunResult;
  /** Every platform call that preview made, Keystone's token requests included. */
  againCalls: AuditEntry[];
}

describe("the field tables' representative rows on the real Pulumi engine", () => {
  let t: SenlinStack;
  let outputs: Outputs;
  const runs = new Map<number, Promise<RoundRun>>();
  const masks = async () => (await t.plane.admin<{ updates: UpdateMask[] }>("/_local/vcluster/update-masks")).updates;

  beforeAll(async () => {
    t = await openSenlinStack({
      program: "field-rows",
      timeScale: 0.1,
      planeFlags: ["--cyclecloud-password", CC_PASSWORD],
      config: { "clusterform:cyclecloudUsername": "admin" },
      secrets: { "clusterform:cyclecloudPassword": CC_PASSWORD },
    });
    const buckets = [
      { machineType: "Standard_F2s_v2", quota: 20 },
      { machineType: "Standard_F4s_v2", quota: 10 },
    ];
    await ccAdmin(t.plane, "/_local/cyclecloud/clusters", { name: "demo", nodearrays: [{ name: "execute", buckets }] });
    await t.configure(specsAfter(-1));
    outputs = (await t.stack.up()).outputs;
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  async function playRound(round: number): Promise<RoundRun> {
    await t.configure(specsAfter(round));
    const preview = await t.stack.preview();
    const [since, masksBefore] = [await t.plane.lastSeq(), (await masks()).length];
    const before = outputs;
    const up = await t.stack.up();
    outputs = up.outputs;
    const audit = await t.plane.audit(since);
    const upMasks = (await masks()).slice(masksBefore);
    const afterUp = await t.plane.lastSeq();
    const again = await t.stack.preview();
    return { preview, before, after: outputs, audit, masks: upMasks, again, againCalls: await t.plane.audit(afterUp) };
  }

  /** The round's run: its first row starts it, the others share it (and its failure). */
  const runRound = (round: number): Promise<RoundRun> => {
    let run = runs.get(round);
    if (!run) {
      run = playRound(round);
      runs.set(round, run);
    }
    return run;
  };

  const cases = Array.from({ length: ROUNDS }, (_, round) =>
    Object.values(PLATFORMS).flatMap((platform) => (round < platform.rows.length ? [{ field: platform.rows[round].field, platform, row: platform.rows[round], round }] : [])),
  ).flat();

  it.each(cases)("$field", async ({ platform, row, round }) => {
    const run = await runRound(round);
    const mine = (result: RunResult) => changingSteps(result).filter((s) => platform.resources.includes(s.name));
    // The row's resource shows its step, and no other resource of the platform changes.
    expect(previewStep(run.preview.steps, row.resource)?.op ?? "same").toBe(row.op);
    expect(mine(run.preview).filter((s) => s.name !== row.resource)).toEqual([]);
    const calls = run.audit.filter((e) => e.api === platform.api);
    expect(calls.filter(isPlannable).map((e) => `${e.operation} ${e.target}`)).toEqual(row.calls(run.before, run.after));
    // The operations plan of the previewed change is exactly what the up did (issue 18).
    expectPlannedAsAudited(previewStep(run.preview.steps, row.resource), calls);
    if (platform.api === "vcluster") expect(run.masks.map((m) => m.paths)).toEqual(row.masks ?? []);
    expect(mine(run.again)).toEqual([]);
  });

  it("nothing is left to do after the last round", async () => {
    expect(changingSteps((await runRound(ROUNDS - 1)).again)).toEqual([]);
  });

  it("a preview of a state this release wrote calls no platform, Keystone included", async () => {
    for (let round = 0; round < ROUNDS; round++) expect({ round, calls: (await runRound(round)).againCalls }).toEqual({ round, calls: [] });
  });

  it("refreshes every object without a change or a write, and an up then changes nothing and calls no platform", async () => {
    await runRound(ROUNDS - 1);
    const recorded = async () =>
      ((await t.stack.exportState()).deployment.resources ?? [])
        .filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/"))
        .map((r: { urn: string; inputs: unknown; outputs: unknown }) => ({ urn: r.urn, inputs: r.inputs, outputs: r.outputs }));
    const before = await recorded();
    expect(before).toHaveLength(Object.values(PLATFORMS).flatMap((p) => p.resources).length);
    const since = await t.plane.lastSeq();
    const refresh = await t.stack.refresh();
    expect(resourceSteps(refresh).filter((s) => s.diffs.length > 0)).toEqual([]);
    expect(writes(await t.plane.audit(since))).toEqual([]);
    expect(await recorded()).toEqual(before);
    const afterRefresh = await t.plane.lastSeq();
    expect(changingSteps(await t.stack.up())).toEqual([]);
    expect(await t.plane.audit(afterRefresh)).toEqual([]);
  });
});
