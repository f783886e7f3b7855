import { Code } from "@connectrpc/connect";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Phase, SnapshotStatus } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { codeOf, errorOf, startVclusterPlane, type VclusterTestPlane } from "./testing";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
const ns = "team-a";
const dev = { name: "dev", namespace: ns };

beforeEach(async () => {
  t = await startVclusterPlane();
  await t.vc.createVCluster({ ...dev, labels: { env: "test" } });
  t.clock.advance(2000);
});
afterEach(async () => {
  await t.close();
});

async function statusOf() {
  return (await t.vc.getVCluster(dev)).vcluster!.status!;
}

describe("scale", () => {
  it("is SCALING for 2 s with the old ready count, then RUNNING at the new size", async () => {
    const reply = await t.vc.scaleVCluster({ ...dev, replicas: 3, resources: { cpuLimit: "2" } });
    expect(reply.vcluster!.spec).toMatchObject({ replicas: 3, resources: { cpuLimit: "2" } });
    expect(reply.vcluster!.status).toMatchObject({ phase: Phase.SCALING, readyReplicas: 1, totalReplicas: 3, observedGeneration: 1n });
    t.clock.advance(1999);
    expect((await statusOf()).phase).toBe(Phase.SCALING);
    t.clock.advance(1);
    expect(await statusOf()).toMatchObject({ phase: Phase.RUNNING, readyReplicas: 3, totalReplicas: 3, observedGeneration: 2n });
  });

  it("keeps the replica count when the request sends 0", async () => {
    await t.vc.scaleVCluster({ ...dev, resources: { memoryLimit: "2Gi" } });
    expect((await t.vc.getVCluster(dev)).vcluster!.spec).toMatchObject({ replicas: 1, resources: { memoryLimit: "2Gi" } });
  });

  it("is refused outside RUNNING with FAILED_PRECONDITION naming the phase", async () => {
    await t.vc.scaleVCluster({ ...dev, replicas: 3 });
    const error = await errorOf(t.vc.scaleVCluster({ ...dev, replicas: 2 }));
    expect([error.code, error.rawMessage]).toEqual([Code.FailedPrecondition, 'cannot scale vcluster "team-a/dev" in phase SCALING: allowed in RUNNING']);
  });

  it("ends in ERROR with ScaleFailed when a fail-operation fault matches", async () => {
    await t.http("POST", "/_local/faults", { api: "vcluster", operation: "ScaleVCluster", action: "fail-operation", message: "quota exceeded" });
    await t.vc.scaleVCluster({ ...dev, replicas: 3 });
    t.clock.advance(2000);
    expect(await statusOf()).toMatchObject({ phase: Phase.ERROR, reason: "ScaleFailed", message: "quota exceeded", readyReplicas: 0 });
  });
});

describe("suspend and resume", () => {
  it("suspends at once with zero ready replicas and a Suspended condition, then resumes in 2 s", async () => {
    const suspended = await t.vc.suspendVCluster(dev);
    expect(suspended.vcluster!.status).toMatchObject({ phase: Phase.SUSPENDED, readyReplicas: 0 });
    expect(suspended.vcluster!.status!.conditions.find((c) => c.type === "Suspended")?.status).toBe("True");
    expect(suspended.snapshot).toBeUndefined();
    const resumed = await t.vc.resumeVCluster(dev);
    expect(resumed.vcluster!.status!.phase).toBe(Phase.RESUMING);
    t.clock.advance(2000);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
  });

  it("takes a READY snapshot named <name>-suspend-<unix> when asked", async () => {
    const { snapshot } = await t.vc.suspendVCluster({ ...dev, createSnapshot: true });
    expect(snapshot).toMatchObject({ name: "dev-suspend-1700000002", status: SnapshotStatus.READY, vclusterName: "dev", namespace: ns });
    expect((await statusOf()).lastSnapshot).toMatchObject({ id: snapshot!.id, status: "READY" });
  });

  it.each([
    ["suspend a SUSPENDED", () => t.vc.suspendVCluster(dev), true],
    ["resume a RUNNING", () => t.vc.resumeVCluster(dev), false],
  ])("refuses to %s vcluster", async (_, call, suspendFirst) => {
    if (suspendFirst) await t.vc.suspendVCluster(dev);
    expect(await codeOf(call())).toBe(Code.FailedPrecondition);
  });

  it("refuses to suspend a CREATING vcluster", async () => {
    await t.vc.createVCluster({ name: "new", namespace: ns });
    expect(await codeOf(t.vc.suspendVCluster({ name: "new", namespace: ns }))).toBe(Code.FailedPrecondition);
  });
});

describe("snapshots and restore", () => {
  it("makes a snapshot CREATING, READY after 1 s, while the vcluster stays RUNNING", async () => {
    const { snapshot, operationId } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "nightly", description: "d", labels: { kind: "nightly" } });
    expect(operationId).toMatch(/^op-/);
    expect(snapshot).toMatchObject({ name: "nightly", status: SnapshotStatus.CREATING, description: "d", labels: { kind: "nightly" }, sizeBytes: 1_048_576n });
    expect(snapshot!.id).toMatch(/^snap-1700000002-\d+$/);
    expect(snapshot!.storageUri).toBe(`s3://vcluster-snapshots/team-a/dev/${snapshot!.id}.tar.gz`);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
    t.clock.advance(1000);
    expect((await t.snap.getSnapshot({ id: snapshot!.id })).snapshot!.status).toBe(SnapshotStatus.READY);
    expect((await statusOf()).lastSnapshot).toMatchObject({ name: "nightly", status: "READY" });
  });

  it("expires a snapshot after its retention", async () => {
    const { snapshot } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "short", retentionHours: 1 });
    expect(snapshot!.expireTime!.seconds).toBe(1_700_000_002n + 3600n);
    t.clock.advance(3_599_999);
    expect(await codeOf(t.snap.getSnapshot({ id: snapshot!.id }))).toBe("OK");
    t.clock.advance(1);
    expect(await codeOf(t.snap.getSnapshot({ id: snapshot!.id }))).toBe(Code.NotFound);
  });

  it("rejects a second snapshot of the same name in the namespace", async () => {
    await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    expect(await codeOf(t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" }))).toBe(Code.AlreadyExists);
  });

  it("restores in place: RESTORING for 3 s with the snapshot's spec, then RUNNING", async () => {
    const { snapshot } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    t.clock.advance(1000);
    await t.vc.updateVCluster({ ...dev, spec: { kubernetesVersion: "1.29.1" }, updateMask: { paths: ["spec.kubernetes_version"] } });
    const restored = await t.vc.restoreVCluster({ ...dev, snapshotId: snapshot!.id });
    expect(restored.vcluster!.status!.phase).toBe(Phase.RESTORING);
    expect(restored.vcluster!.spec!.kubernetesVersion).toBe("1.28.0");
    t.clock.advance(3000);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
  });

  it("restores into a new vcluster with the snapshot's labels, ALREADY_EXISTS when the name is taken", async () => {
    const { snapshot } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    t.clock.advance(1000);
    const copy = await t.vc.restoreVCluster({ ...dev, snapshotId: snapshot!.id, createNew: true, newName: "copy" });
    expect(copy.vcluster).toMatchObject({ name: "copy", namespace: ns, labels: { env: "test" }, status: { phase: Phase.RESTORING } });
    t.clock.advance(3000);
    expect((await t.vc.getVCluster({ name: "copy", namespace: ns })).vcluster!.status!.phase).toBe(Phase.RUNNING);
    expect(await codeOf(t.vc.restoreVCluster({ ...dev, snapshotId: snapshot!.id, createNew: true, newName: "copy" }))).toBe(Code.AlreadyExists);
  });

  it("refuses to restore from a snapshot that is not READY, or does not exist", async () => {
    const { snapshot } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    const error = await errorOf(t.vc.restoreVCluster({ ...dev, snapshotId: snapshot!.id }));
    expect([error.code, error.rawMessage]).toEqual([Code.FailedPrecondition, `snapshot "${snapshot!.id}" is CREATING: only a READY snapshot can be restored`]);
    expect(await codeOf(t.vc.restoreVCluster({ ...dev, snapshotId: "snap-0-0" }))).toBe(Code.NotFound);
  });

  it("marks a snapshot FAILED when a fail-operation fault matches", async () => {
    await t.http("POST", "/_local/faults", { api: "vcluster", operation: "SnapshotVCluster", action: "fail-operation" });
    const { snapshot } = await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    t.clock.advance(1000);
    expect((await t.snap.getSnapshot({ id: snapshot!.id })).snapshot!.status).toBe(SnapshotStatus.FAILED);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
  });

  it("deletes a vcluster's snapshots with it when asked", async () => {
    await t.vc.snapshotVCluster({ ...dev, snapshotName: "s1" });
    await t.vc.createVCluster({ name: "other", namespace: ns });
    t.clock.advance(2000);
    await t.vc.snapshotVCluster({ name: "other", namespace: ns, snapshotName: "s2" });
    await t.vc.deleteVCluster({ ...dev, deleteSnapshots: true });
    t.clock.advance(1000);
    expect((await t.snap.listSnapshots({})).snapshots.map((s) => s.name)).toEqual(["s2"]);
  });
});

describe("kubeconfig", () => {
  it.each([
    ["default", /token: [0-9a-f]{64}\n/],
    ["", /token: [0-9a-f]{64}\n/],
    ["exec", /command: vcluster\n/],
    ["token", /token: [0-9a-f]{64}\n/],
  ])("renders format %j with the endpoint as server, expiring after 24 h as the reference's do", async (format, auth) => {
    const reply = await t.vc.getVClusterKubeconfig({ ...dev, format });
    const yaml = Buffer.from(reply.kubeconfig, "base64").toString("utf8");
    expect(reply.apiServerEndpoint).toBe("https://dev.team-a.svc:443");
    expect(yaml).toContain("server: https://dev.team-a.svc:443\n");
    expect(yaml).toMatch(auth);
    expect(reply.expiresAt?.seconds).toBe(1_700_000_002n + 24n * 3600n);
  });

  it("honours validity_hours and the ingress hostname as endpoint", async () => {
    await t.vc.updateVCluster({ ...dev, spec: { ingress: { enabled: true, hostname: "dev.example.com" } }, updateMask: { paths: ["spec.ingress"] } });
    const reply = await t.vc.getVClusterKubeconfig({ ...dev, format: "token", validityHours: 2 });
    expect(reply.apiServerEndpoint).toBe("https://dev.example.com");
    expect(reply.expiresAt!.seconds).toBe(1_700_000_002n + 7200n);
  });

  it.each([
    [{ format: "cert" }, Code.InvalidArgument],
    [{ format: "token", validityHours: 9000 }, Code.InvalidArgument],
  ])("rejects %j", async (extra, code) => {
    expect(await codeOf(t.vc.getVClusterKubeconfig({ ...dev, ...extra }))).toBe(code);
  });

  it("is refused unless RUNNING", async () => {
    await t.vc.suspendVCluster(dev);
    expect(await codeOf(t.vc.getVClusterKubeconfig(dev))).toBe(Code.FailedPrecondition);
  });
});
