import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import type { AuditEntry, Fault } from "../harness/local-plane";

/** Reads and watches are waiting; everything else changes the platform. */
const READS = new Set(["GetVCluster", "ListVClusters", "WatchVCluster", "GetSnapshot", "ListSnapshots", "GetVClusterKubeconfig"]);
const writes = (entries: AuditEntry[]) => entries.filter((e) => e.api === "vcluster" && !READS.has(e.operation)).map((e) => `${e.operation} ${e.target}`);

interface VclusterView {
  name: string;
  namespace: string;
  phase: string;
  labels: Record<string, string>;
  replicas: { desired: number };
}

describe("vcluster: the whole lifecycle through the engine", () => {
  let t: TestStack;
  let name: string;
  const vclusters = async () => (await t.plane.admin<{ vclusters: VclusterView[] }>("/_local/vcluster/vclusters")).vclusters;

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.2 });
    await t.configure({ vc: { namespace: "team-a", replicas: 1, labels: { env: "dev" } } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates the vcluster, waits for RUNNING and records its outputs", async () => {
    const result = await t.stack.up();
    name = String(result.outputs.name);
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["create main"]);
    expect(result.outputs).toMatchObject({ phase: "RUNNING", readyReplicas: 1, apiServerEndpoint: `https://${name}.team-a.svc:443` });
    expect(result.outputs.helmRelease).toMatchObject({ name, status: "deployed", revision: 1 });
    expect((result.outputs.conditions as { type: string; status: string }[]).map((c) => `${c.type}=${c.status}`)).toContain("Ready=True");
    expect(await vclusters()).toMatchObject([{ name, namespace: "team-a", phase: "RUNNING", labels: { env: "dev", "clusterform.dev/owner": expect.any(String) } }]);
    expect(writes(await t.plane.audit())).toEqual([`CreateVCluster team-a/${name}`]);
  });

  it("keeps the kubeconfig secret: the stored state holds no plaintext kubeconfig or token", async () => {
    const state = await t.stack.storedState();
    const outputs = await t.stack.stack.outputs();
    const kubeconfig = String(outputs.kubeconfig.value);
    expect(outputs.kubeconfig.secret).toBe(true);
    const token = /token: (\S+)/.exec(kubeconfig)?.[1];
    expect(token).toBeTruthy();
    expect(state).not.toContain(token);
    expect(state).not.toContain("apiVersion: v1");
  });

  it("suspends in one up and resumes in the next", async () => {
    await t.configure({ vc: { namespace: "team-a", replicas: 1, labels: { env: "dev" }, suspended: true } });
    let since = await t.plane.lastSeq();
    expect((await t.stack.up()).outputs).toMatchObject({ phase: "SUSPENDED", readyReplicas: 0 });
    expect(writes(await t.plane.audit(since))).toEqual([`SuspendVCluster team-a/${name}`]);
    await t.configure({ vc: { namespace: "team-a", replicas: 1, labels: { env: "dev" }, suspended: false } });
    since = await t.plane.lastSeq();
    expect((await t.stack.up()).outputs).toMatchObject({ phase: "RUNNING", readyReplicas: 1 });
    expect(writes(await t.plane.audit(since))).toEqual([`ResumeVCluster team-a/${name}`]);
  });

  it("resumes before scaling when one up clears suspended and raises replicas", async () => {
    await t.configure({ vc: { namespace: "team-a", replicas: 1, labels: { env: "dev" }, suspended: true } });
    await t.stack.up();
    await t.configure({ vc: { namespace: "team-a", replicas: 3, labels: { env: "dev" }, suspended: false } });
    const since = await t.plane.lastSeq();
    expect((await t.stack.up()).outputs).toMatchObject({ phase: "RUNNING", readyReplicas: 3 });
    expect(writes(await t.plane.audit(since))).toEqual([`ResumeVCluster team-a/${name}`, `ScaleVCluster team-a/${name}`]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("finishes an up whose watch stream breaks mid-wait, by polling", async () => {
    await t.plane.addFault({ api: "vcluster", action: "break-watch", message: "connection reset by peer" } as unknown as Fault);
    await t.configure({ vc: { namespace: "team-a", replicas: 2, labels: { env: "dev" } } });
    const result = await t.stack.up();
    expect(result.outputs).toMatchObject({ phase: "RUNNING", readyReplicas: 2 });
    expect(result.stdout).toContain("broke");
    expect((await vclusters())[0]).toMatchObject({ phase: "RUNNING", replicas: { desired: 2 } });
  });

  it("takes a snapshot, then creates a new vcluster restored from it", async () => {
    await t.configure({ snapshot: { retentionHours: 24, description: "before the upgrade" }, restored: { name: "restored" } });
    const since = await t.plane.lastSeq();
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["create snap", "create copy"]);
    expect(result.outputs).toMatchObject({ copyName: "restored", copyReplicas: 2, snapshotId: expect.stringMatching(/^snap-/) });
    expect(writes(await t.plane.audit(since))).toEqual([
      `SnapshotVCluster team-a/${name}`,
      `RestoreVCluster team-a/${name}`,
      "UpdateVCluster team-a/restored",
    ]);
    expect((await vclusters()).map((v) => `${v.name}:${v.phase}`).sort()).toEqual([`${name}:RUNNING`, "restored:RUNNING"]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("destroys everything and leaves nothing in the local control plane", async () => {
    await t.stack.destroy();
    expect(await vclusters()).toEqual([]);
    expect((await t.plane.admin<{ snapshots: unknown[] }>("/_local/vcluster/snapshots")).snapshots).toEqual([]);
  });
});
