import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import type { AuditEntry } from "../harness/local-plane";

const READS = new Set(["GetVCluster", "ListVClusters", "WatchVCluster", "GetSnapshot", "ListSnapshots", "GetVClusterKubeconfig"]);
const writes = (entries: AuditEntry[]) => entries.filter((e) => e.api === "vcluster" && !READS.has(e.operation)).map((e) => `${e.operation} ${e.target}`);

interface View {
  id: string;
  name: string;
  phase: string;
}

// A create-first `--replace` refused, and a create an interrupted run left CREATING adopted, are
// tested in process (provider/kinds/vcluster/platform.test.ts); the engine's kill during create, on
// every kind, is the reliability matrix's (test/README.md).
describe("vcluster: `pulumi up --replace` ends with a live object the state names", () => {
  let t: TestStack;
  let outputs: Record<string, unknown>;
  const vclusters = async () => (await t.plane.admin<{ vclusters: View[] }>("/_local/vcluster/vclusters")).vclusters;
  const snapshots = async () => (await t.plane.admin<{ snapshots: { id: string }[] }>("/_local/vcluster/snapshots")).snapshots;

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.1 });
    await t.configure({ vc: { namespace: "team-a" }, snapshot: { name: "nightly", retentionHours: 1 } });
    outputs = (await t.stack.up()).outputs;
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("replaces a vcluster with a derived name, deleting first, and the state names the new one", async () => {
    const first = outputs;
    const name = String(first.name);
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("main")] });
    outputs = result.outputs;
    // The snapshot depends on the vcluster, so the engine replaces it too, deleting it first.
    expect(writes(await t.plane.audit(since))).toEqual([
      `DeleteSnapshot ${first.snapshotId}`,
      `DeleteVCluster team-a/${name}`,
      // The deterministic request id of the first create is answered from the server's request
      // journal with the deleted vcluster; create sees the answer is stale and sends a fresh id.
      `CreateVCluster team-a/${name}`,
      `CreateVCluster team-a/${name}`,
      `SnapshotVCluster team-a/${name}`,
    ]);
    const live = await vclusters();
    expect(live.map((v) => [v.id, v.name, v.phase])).toEqual([[result.outputs.vclusterId, name, "RUNNING"]]);
    expect(result.outputs.vclusterId).not.toBe(first.vclusterId);
    expect((await snapshots()).map((s) => s.id)).toEqual([result.outputs.snapshotId]);
  });

  it("replaces a snapshot alone, under its chosen name", async () => {
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("snap")] });
    expect(writes(await t.plane.audit(since))).toEqual([`DeleteSnapshot ${outputs.snapshotId}`, `SnapshotVCluster team-a/${outputs.name}`]);
    expect(result.outputs.snapshotId).not.toBe(outputs.snapshotId);
    expect((await snapshots()).map((s) => s.id)).toEqual([result.outputs.snapshotId]);
  });
});
