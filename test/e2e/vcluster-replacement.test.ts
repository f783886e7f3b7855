import { afterEach, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { spawnCli } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { killTree } from "../harness/processes";

const READS = new Set(["GetVCluster", "ListVClusters", "WatchVCluster", "GetSnapshot", "ListSnapshots", "GetVClusterKubeconfig"]);
const writes = (entries: AuditEntry[]) => entries.filter((e) => e.api === "vcluster" && !READS.has(e.operation)).map((e) => `${e.operation} ${e.target}`);
const creates = (entries: AuditEntry[]) => entries.filter((e) => e.operation === "CreateVCluster" && e.code === "OK");

interface View {
  id: string;
  name: string;
  phase: string;
}

describe("vcluster: `pulumi up --replace` ends with a live object the state names; interrupted creates are adopted", () => {
  let t: TestStack | undefined;
  const vclusters = async () => (await t!.plane.admin<{ vclusters: View[] }>("/_local/vcluster/vclusters")).vclusters;
  const snapshots = async () => (await t!.plane.admin<{ snapshots: { id: string }[] }>("/_local/vcluster/snapshots")).snapshots;

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it.each([
    ["a derived name", {}],
    ["a chosen name", { name: "chosen" }],
  ])("replaces a vcluster with %s, deleting first, and the state names the new one", async (_, naming) => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.1 });
    await t.configure({ vc: { namespace: "team-a", ...naming }, snapshot: { retentionHours: 1 } });
    const first = await t.stack.up();
    const name = String(first.outputs.name);
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("main")] });
    // The snapshot depends on the vcluster, so the engine replaces it too, deleting it first.
    expect(writes(await t.plane.audit(since))).toEqual([
      `DeleteSnapshot ${first.outputs.snapshotId}`,
      `DeleteVCluster team-a/${name}`,
      // The deterministic request id of the first create is answered from the server's request
      // journal with the deleted vcluster; create sees the answer is stale and sends a fresh id.
      `CreateVCluster team-a/${name}`,
      `CreateVCluster team-a/${name}`,
      `SnapshotVCluster team-a/${name}`,
    ]);
    const live = await vclusters();
    expect(live.map((v) => [v.id, v.name, v.phase])).toEqual([[result.outputs.vclusterId, name, "RUNNING"]]);
    expect(result.outputs.vclusterId).not.toBe(first.outputs.vclusterId);
    expect((await snapshots()).map((s) => s.id)).toEqual([result.outputs.snapshotId]);
  });

  it("replaces a snapshot alone with `up --replace`", async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.1 });
    await t.configure({ vc: { namespace: "team-a", name: "solo" }, snapshot: { name: "nightly" } });
    const first = await t.stack.up();
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("snap")] });
    expect(writes(await t.plane.audit(since))).toEqual([`DeleteSnapshot ${first.outputs.snapshotId}`, "SnapshotVCluster team-a/solo"]);
    expect((await snapshots()).map((s) => s.id)).toEqual([result.outputs.snapshotId]);
  });

  it("refuses `up --replace` with deleteBeforeReplace: false before any mutating call, saying how to replace", async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.1 });
    await t.configure({ vc: { namespace: "team-a", name: "keep" }, deleteBeforeReplace: false });
    const first = await t.stack.up();
    const since = await t.plane.lastSeq();
    await expect(t.stack.up({ replace: [await t.stack.urnOf("main")] })).rejects.toThrow(/Remove `deleteBeforeReplace: false`/);
    expect(writes(await t.plane.audit(since))).toEqual([]);
    expect((await vclusters()).map((v) => v.id)).toEqual([first.outputs.vclusterId]);
  });

  it("adopts what an interrupted up created: killed while the vcluster is CREATING, the next up converges with one vcluster", async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 1 });
    await t.configure({ vc: { namespace: "team-a", replicas: 3 } });
    const plane = t.plane;
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 50 }).toBe(1);
    killTree(cli.pid!);
    await exited;
    expect((await vclusters()).map((v) => v.phase)).toEqual(["CREATING"]);

    await t.stack.stack.cancel();
    const result = await t.stack.up();
    expect(result.outputs).toMatchObject({ phase: "RUNNING", readyReplicas: 3 });
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await vclusters()).map((v) => v.name)).toEqual([result.outputs.name]);
  });
});
