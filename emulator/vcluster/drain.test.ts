import { Code } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Phase, SnapshotStatus } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { DEFAULT_PODS, EVICTION_SECONDS, planDrain } from "./drain";
import { errorOf, startVclusterPlane, type VclusterTestPlane } from "./testing";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
const dev = { name: "dev", namespace: "team-a" };

/** A plane with `dev` RUNNING and running `pods` pods. */
async function start(pods: number, timeScale = 1): Promise<void> {
  t = await startVclusterPlane({ timeScale });
  await t.vc.createVCluster(dev);
  t.clock.advance(2000 * timeScale);
  const set = await t.http("POST", "/_local/vcluster/workloads", { ...dev, pods });
  expect(set).toMatchObject({ status: 200, body: { pods } });
}
async function statusOf() {
  return (await t.vc.getVCluster(dev)).vcluster!.status!;
}

const suspendedCondition = async () => (await statusOf()).conditions.find((c) => c.type === "Suspended");

describe("planDrain", () => {
  it.each([
    ["every pod evicted without a timeout", 3, 0, { seconds: 3 * EVICTION_SECONDS, timedOut: false, evicted: 3 }],
    ["every pod evicted within the timeout", 3, 6, { seconds: 6, timedOut: false, evicted: 3 }],
    ["a timeout when the evictions need longer", 10, 5, { seconds: 5, timedOut: true, evicted: 2 }],
    ["nothing to evict", 0, 1, { seconds: 0, timedOut: false, evicted: 0 }],
  ])("plans %s", (_, pods, timeout, expected) => {
    expect(planDrain(pods, timeout)).toEqual(expected);
  });
});

describe("SuspendVCluster with drain_workloads", () => {
  afterEach(async () => {
    await t.close();
  });

  it("evicts one pod every 2 s while the vcluster stays RUNNING, then suspends", async () => {
    await start(3);
    const reply = await t.vc.suspendVCluster({ ...dev, drainWorkloads: true, drainTimeoutSeconds: 60 });
    expect(reply.vcluster!.status).toMatchObject({ phase: Phase.RUNNING, reason: "Draining", message: "draining workloads before suspending: 0 of 3 pods evicted, timeout 60s" });
    expect(reply.operationId).toMatch(/^op-/);
    t.clock.advance(2000);
    expect(await statusOf()).toMatchObject({ phase: Phase.RUNNING, message: "draining workloads before suspending: 1 of 3 pods evicted, timeout 60s", currentUsage: { podCount: 2 } });
    expect(await suspendedCondition()).toMatchObject({ status: "False", reason: "Draining" });
    t.clock.advance(3999);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
    t.clock.advance(1);
    expect(await statusOf()).toMatchObject({ phase: Phase.SUSPENDED, reason: "", message: "vcluster is suspended", readyReplicas: 0 });
    expect(await suspendedCondition()).toMatchObject({ status: "True", reason: "Suspended" });
  });

  it("fails the suspend when the drain outlasts drain_timeout_seconds: the vcluster keeps running with reason DrainTimeout", async () => {
    await start(10);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true, drainTimeoutSeconds: 5 });
    t.clock.advance(4999);
    expect(await statusOf()).toMatchObject({ phase: Phase.RUNNING, reason: "Draining", currentUsage: { podCount: 8 } });
    t.clock.advance(1);
    const message =
      "drain timed out after 5s with 8 of 10 pods not evicted: the vcluster was not suspended and keeps running, and the 2 evicted pods are scheduled again";
    expect(await statusOf()).toMatchObject({ phase: Phase.RUNNING, reason: "DrainTimeout", message, readyReplicas: 1, currentUsage: { podCount: 10 } });
    expect(await suspendedCondition()).toMatchObject({ status: "False", reason: "DrainTimeout", message });
    // Still RUNNING and serving: it scales, and a suspend without a drain stops it at once.
    expect((await t.vc.getVClusterKubeconfig(dev)).kubeconfig).not.toBe("");
    expect((await t.vc.suspendVCluster(dev)).vcluster!.status).toMatchObject({ phase: Phase.SUSPENDED, reason: "" });
  });

  it("paces the evictions by the plane's time scale", async () => {
    await start(3, 0.5);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true });
    t.clock.advance(2999);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
    t.clock.advance(1);
    expect((await statusOf()).phase).toBe(Phase.SUSPENDED);
  });

  it(`drains the ${DEFAULT_PODS} pods a vcluster runs when no count was set`, async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster(dev);
    t.clock.advance(2000);
    expect((await statusOf()).currentUsage?.podCount).toBe(DEFAULT_PODS);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true });
    t.clock.advance(DEFAULT_PODS * EVICTION_SECONDS * 1000);
    expect((await statusOf()).phase).toBe(Phase.SUSPENDED);
  });

  it("takes the snapshot before the drain: the answer carries it, ListSnapshots shows it, and a timed-out drain keeps it", async () => {
    await start(10);
    const { snapshot } = await t.vc.suspendVCluster({ ...dev, drainWorkloads: true, drainTimeoutSeconds: 4, createSnapshot: true, snapshotName: "before-pause" });
    expect(snapshot).toMatchObject({ name: "before-pause", status: SnapshotStatus.READY, vclusterName: "dev", namespace: "team-a" });
    t.clock.advance(4000);
    expect(await statusOf()).toMatchObject({ phase: Phase.RUNNING, reason: "DrainTimeout", lastSnapshot: { id: snapshot!.id, status: "READY" } });
    expect((await statusOf()).message).toContain(`the snapshot ${snapshot!.id} taken before the drain is kept`);
    const { snapshots } = await t.snap.listSnapshots({ vclusterName: "dev", namespace: "team-a" });
    expect(snapshots.map((s) => [s.id, s.name, s.status])).toEqual([[snapshot!.id, "before-pause", SnapshotStatus.READY]]);
  });

  it.each([
    ["scale", () => t.vc.scaleVCluster({ ...dev, replicas: 2 }), 'cannot scale vcluster "team-a/dev" while it drains its workloads for a suspend'],
    ["suspend again", () => t.vc.suspendVCluster(dev), 'cannot suspend vcluster "team-a/dev" while it drains its workloads for a suspend'],
  ])("refuses to %s while draining, with FAILED_PRECONDITION", async (_, call, message) => {
    await start(3);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true });
    const error = await errorOf(call());
    expect([error.code, error.rawMessage]).toEqual([Code.FailedPrecondition, message]);
  });

  it("lets a delete overtake a drain: the vcluster goes without suspending", async () => {
    await start(3);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true });
    await t.vc.deleteVCluster(dev);
    expect((await statusOf()).phase).toBe(Phase.DELETING);
    t.clock.advance(1000);
    expect((await errorOf(t.vc.getVCluster(dev))).code).toBe(Code.NotFound);
  });

  it.each([
    ["a negative timeout", { drainWorkloads: true, drainTimeoutSeconds: -1 }, 'invalid drain_timeout_seconds -1: must be 0 (no timeout) or more'],
    ["a timeout without a drain", { drainTimeoutSeconds: 30 }, "invalid drain_timeout_seconds 30: applies only with drain_workloads: true"],
    ["a snapshot name without a snapshot", { snapshotName: "s1" }, 'invalid snapshot_name "s1": applies only with create_snapshot: true'],
    ["a snapshot name that is not a DNS label", { createSnapshot: true, snapshotName: "Before_Pause" }, "snapshot_name"],
  ])("refuses %s with INVALID_ARGUMENT, leaving the vcluster RUNNING", async (_, options, message) => {
    await start(1);
    const error = await errorOf(t.vc.suspendVCluster({ ...dev, ...options }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toContain(message);
    expect((await statusOf()).phase).toBe(Phase.RUNNING);
  });

  it("records the drain and snapshot fields of the request in the audit log", async () => {
    await start(1);
    await t.vc.suspendVCluster({ ...dev, drainWorkloads: true, drainTimeoutSeconds: 30, createSnapshot: true, snapshotName: "s1" });
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { operation: string; request?: unknown }[] };
    expect(entries.find((e) => e.operation === "SuspendVCluster")?.request).toEqual({
      name: "dev",
      namespace: "team-a",
      drainWorkloads: true,
      drainTimeoutSeconds: 30,
      createSnapshot: true,
      snapshotName: "s1",
    });
  });

  it.each([
    ["a negative count", { ...dev, pods: -1 }],
    ["a vcluster that does not exist", { namespace: "team-a", name: "nope", pods: 1 }],
  ])("refuses a workloads body with %s", async (_, body) => {
    await start(1);
    expect((await t.http("POST", "/_local/vcluster/workloads", body)).status).toBe(400);
  });
});
