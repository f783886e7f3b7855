import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { ClusterformError } from "../../core/errors";
import { type FakeTime, fakeTime } from "../../core/testing";
import { createVclusterClient, type VclusterClient } from "./client";

afterAll(removeDataDirs);

let t: TestPlane;
let client: VclusterClient;
let time: FakeTime;
const dev = { name: "dev", namespace: "team-a" };

beforeEach(async () => {
  t = await startTestPlane();
  time = fakeTime();
  client = createVclusterClient({ endpoint: t.plane.url, requestIdPrefix: "test", sleep: time.sleep, random: () => 0.999_999, clock: time.now });
});
afterEach(async () => {
  client.close();
  await t.close();
});

async function audit(): Promise<{ operation: string; target: string; code: string; requestId: string }[]> {
  return ((await t.http("GET", "/_local/audit")).body as { entries: { operation: string; target: string; code: string; requestId: string }[] }).entries;
}

async function fault(body: Record<string, unknown>): Promise<void> {
  await t.http("POST", "/_local/faults", { api: "vcluster", ...body });
}

async function errorOf(call: Promise<unknown>): Promise<ClusterformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClusterformError);
  return error as ClusterformError;
}

describe("vcluster client against the emulator", () => {
  it("creates with a generated request id and returns plain state with phase names", async () => {
    const created = await client.createVCluster({ ...dev, spec: { replicas: 3, resources: { cpuLimit: "2" } }, labels: { env: "test" } });
    expect(created.requestId).toMatch(/^test-[0-9a-f-]{36}$/);
    expect(created.operationId).toMatch(/^op-/);
    expect(created.vcluster).toMatchObject({ ...dev, phase: "CREATING", labels: { env: "test" }, totalReplicas: 3, readyReplicas: 0, createTime: "2023-11-14T22:13:20.000Z", deleteTime: "" });
    expect(created.vcluster.spec).toMatchObject({ kubernetesVersion: "1.28.0", distro: "k3s", replicas: 3, resources: { cpuLimit: "2", cpuRequest: "" } });
    expect(JSON.stringify(created.vcluster)).not.toContain("$typeName");
    expect(created.vcluster.resourceVersion).toMatch(/^\d+$/);
    t.clock.advance(2000);
    expect(await client.getVCluster(dev)).toMatchObject({ phase: "RUNNING", readyReplicas: 3, apiServerEndpoint: "https://dev.team-a.svc:443", kubeconfig: "" });
    expect((await client.getVCluster({ ...dev, includeKubeconfig: true })).kubeconfig).toMatch(/^apiVersion: v1\nkind: Config\n/);
  });

  it("retries a create through transient failures with the same request id, creating one vcluster", async () => {
    await fault({ operation: "CreateVCluster", action: "error", code: "UNAVAILABLE", count: 2 });
    const created = await client.createVCluster(dev);
    expect(time.sleeps).toEqual([100, 200]);
    expect((await audit()).map((e) => [e.operation, e.code])).toEqual([
      ["CreateVCluster", "UNAVAILABLE"],
      ["CreateVCluster", "UNAVAILABLE"],
      ["CreateVCluster", "OK"],
    ]);
    // A repeat with the same id (a reply lost after the create landed) gets the first answer.
    const again = await client.createVCluster({ ...dev, requestId: created.requestId });
    expect(again.vcluster.id).toBe(created.vcluster.id);
    expect(await client.listAllVClusters()).toHaveLength(1);
  });

  it("translates NOT_FOUND naming the call, the vcluster and the platform's message", async () => {
    const error = await errorOf(client.getVCluster({ name: "ghost", namespace: "team-a" }));
    expect([error.code, error.platformCode, error.message]).toEqual([
      "NotFound",
      "NOT_FOUND",
      'GetVCluster vcluster "team-a/ghost": NOT_FOUND: vcluster "team-a/ghost" not found',
    ]);
  });

  it.each([
    ["ScaleVCluster", (c: VclusterClient) => c.scaleVCluster({ ...dev, replicas: 3 })],
    ["SuspendVCluster", (c: VclusterClient) => c.suspendVCluster(dev)],
    ["SnapshotVCluster", (c: VclusterClient) => c.snapshotVCluster(dev)],
  ])("does not retry %s, even on a transient error", async (operation, call) => {
    await client.createVCluster(dev);
    t.clock.advance(2000);
    await fault({ operation, action: "error", code: "UNAVAILABLE" });
    expect((await errorOf(call(client))).code).toBe("Unavailable");
    expect((await audit()).filter((e) => e.operation === operation)).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it("reports FAILED_PRECONDITION for a call in the wrong phase", async () => {
    await client.createVCluster(dev);
    const error = await errorOf(client.scaleVCluster({ ...dev, replicas: 2 }));
    expect(error.message).toBe('ScaleVCluster vcluster "team-a/dev": FAILED_PRECONDITION: cannot scale vcluster "team-a/dev" in phase CREATING: allowed in RUNNING');
  });

  it.each([
    ["still deleting", 0],
    ["already gone", 1000],
  ])("counts a delete retry that finds the vcluster %s as landed", async (_, advanceMs) => {
    await client.createVCluster(dev);
    t.clock.advance(2000);
    const first = await client.deleteVCluster(dev);
    expect(first).toMatchObject({ landedEarlier: false, deleteTime: "2023-11-14T22:13:22.000Z" });
    t.clock.advance(advanceMs);
    // The "lost reply" case: this call's first attempt fails, its retry meets the earlier delete.
    await fault({ operation: "DeleteVCluster", action: "error", code: "UNAVAILABLE" });
    expect(await client.deleteVCluster(dev)).toEqual({ operationId: "", deleteTime: "", landedEarlier: true });
  });

  it("does not count a delete refused for its phase as landed", async () => {
    await client.createVCluster(dev);
    await fault({ operation: "DeleteVCluster", action: "error", code: "UNAVAILABLE" });
    expect((await errorOf(client.deleteVCluster(dev))).code).toBe("FailedPrecondition");
  });

  it("lists with phase names and filters, page by page or all at once", async () => {
    for (const name of ["a", "b", "c"]) await client.createVCluster({ name, namespace: "ns", labels: { tier: name === "b" ? "web" : "db" } });
    t.clock.advance(2000);
    await client.createVCluster({ name: "d", namespace: "ns" });
    const page = await client.listVClusters({ pageSize: 2, orderBy: "name" });
    expect([page.items.map((v) => v.name), page.totalCount, page.nextPageToken !== ""]).toEqual([["a", "b"], 4, true]);
    expect((await client.listVClusters({ phases: ["CREATING"] })).items.map((v) => v.name)).toEqual(["d"]);
    expect((await client.listVClusters({ labelSelector: "tier=db" })).items.map((v) => v.name)).toEqual(["a", "c"]);
    expect((await client.listAllVClusters({ namespace: "ns" })).map((v) => v.name)).toEqual(["a", "b", "c", "d"]);
  });

  it("updates through a field mask", async () => {
    await client.createVCluster({ ...dev, spec: { helmValues: "x: 1" } });
    const updated = await client.updateVCluster({ ...dev, spec: { replicas: 3, helmValues: "ignored" }, updateMask: ["spec.replicas"] });
    expect(updated.spec).toMatchObject({ replicas: 3, helmValues: "x: 1" });
    expect(((await t.http("GET", "/_local/vcluster/update-masks")).body as { updates: { paths: string[] }[] }).updates.map((u) => u.paths)).toEqual([["spec.replicas"]]);
  });

  it("snapshots, lists, restores into a new vcluster and deletes the snapshot", async () => {
    await client.createVCluster(dev);
    t.clock.advance(2000);
    const { snapshot } = await client.snapshotVCluster({ ...dev, snapshotName: "s1", retentionHours: 2 });
    expect(snapshot).toMatchObject({ name: "s1", status: "CREATING", vclusterName: "dev", sizeBytes: 1_048_576, expireTime: "2023-11-15T00:13:22.000Z" });
    t.clock.advance(1000);
    expect(await client.getSnapshot({ name: "s1", namespace: "team-a" })).toMatchObject({ id: snapshot.id, status: "READY" });
    expect((await client.listSnapshots({ vclusterName: "dev" })).items.map((s) => s.id)).toEqual([snapshot.id]);
    const copy = await client.restoreVCluster({ ...dev, snapshotId: snapshot.id, createNew: true, newName: "copy" });
    expect(copy.vcluster).toMatchObject({ name: "copy", namespace: "team-a", phase: "RESTORING" });
    expect((await client.deleteSnapshot(snapshot.id)).deleteTime).toBe("2023-11-14T22:13:23.000Z");
    expect((await errorOf(client.getSnapshot({ id: snapshot.id }))).code).toBe("NotFound");
  });

  it("suspends with a snapshot and resumes", async () => {
    await client.createVCluster(dev);
    t.clock.advance(2000);
    const suspended = await client.suspendVCluster({ ...dev, createSnapshot: true, snapshotName: "before-pause" });
    expect([suspended.vcluster.phase, suspended.snapshot?.status, suspended.vcluster.lastSnapshotId]).toEqual(["SUSPENDED", "READY", suspended.snapshot?.id]);
    expect((await client.resumeVCluster(dev)).vcluster.phase).toBe("RESUMING");
  });

  it("returns the kubeconfig as YAML with its endpoint and expiry", async () => {
    await client.createVCluster(dev);
    t.clock.advance(2000);
    const result = await client.getVClusterKubeconfig({ ...dev, format: "token", validityHours: 1 });
    expect(result.kubeconfig).toContain("server: https://dev.team-a.svc:443\n");
    expect([result.apiServerEndpoint, result.expiresAt]).toEqual(["https://dev.team-a.svc:443", "2023-11-14T23:13:22.000Z"]);
  });

  it("translates a refused connection as Unavailable", async () => {
    const closed = createVclusterClient({ endpoint: "http://127.0.0.1:1", sleep: time.sleep, clock: time.now });
    try {
      expect((await errorOf(closed.scaleVCluster(dev))).code).toBe("Unavailable");
    } finally {
      closed.close();
    }
  });
});

describe("vcluster watch helper", () => {
  it("yields events as they happen and ends quietly when aborted", async () => {
    await client.createVCluster({ name: "a", namespace: "ns" });
    const abort = new AbortController();
    const events = client.watchVCluster({ namespace: "ns", signal: abort.signal });
    const first = await events.next();
    expect(first.value).toMatchObject({ type: "ADDED", vcluster: { name: "a", phase: "CREATING" } });
    t.clock.advance(2000);
    expect((await events.next()).value).toMatchObject({ type: "MODIFIED", vcluster: { name: "a", phase: "RUNNING" } });
    const pending = events.next();
    abort.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("resumes from a state's resource version", async () => {
    const created = await client.createVCluster({ name: "a", namespace: "ns" });
    await client.updateVCluster({ name: "a", namespace: "ns", labels: { x: "y" } });
    const abort = new AbortController();
    const events = client.watchVCluster({ resourceVersion: created.vcluster.resourceVersion, signal: abort.signal });
    expect((await events.next()).value).toMatchObject({ type: "MODIFIED", vcluster: { labels: { x: "y" } } });
    abort.abort();
  });

  it("throws a broken stream as Unavailable naming the watch, so callers can fall back to polling", async () => {
    await client.createVCluster({ name: "a", namespace: "ns" });
    const events = client.watchVCluster({ namespace: "ns" });
    expect((await events.next()).value).toMatchObject({ type: "ADDED" });
    await fault({ action: "break-watch", message: "stream reset" });
    await client.updateVCluster({ name: "a", namespace: "ns", labels: { x: "y" } });
    const error = await errorOf(events.next());
    expect([error.code, error.message]).toEqual(["Unavailable", 'WatchVCluster "ns/*": UNAVAILABLE: stream reset']);
  });

  it("throws when the server goes away", async () => {
    const events = client.watchVCluster({});
    const pending = events.next();
    await t.close();
    expect((await errorOf(pending)).code).toBe("Unavailable");
  });

  it("rejects a bad resource version as InvalidArgument", async () => {
    expect((await errorOf(client.watchVCluster({ resourceVersion: "x" }).next())).code).toBe("InvalidArgument");
  });
});
