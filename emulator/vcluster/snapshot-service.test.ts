import { Code } from "@connectrpc/connect";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { SnapshotStatus } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { codeOf, errorOf, startVclusterPlane, type VclusterTestPlane } from "./testing";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
beforeEach(async () => {
  t = await startVclusterPlane();
  for (const [name, namespace] of [["a", "ns1"], ["b", "ns1"], ["a", "ns2"]]) await t.vc.createVCluster({ name, namespace });
  t.clock.advance(2000);
  await t.vc.snapshotVCluster({ name: "a", namespace: "ns1", snapshotName: "a-1", labels: { kind: "nightly" } });
  t.clock.advance(1000);
  await t.vc.snapshotVCluster({ name: "a", namespace: "ns1", snapshotName: "a-2" });
  await t.vc.snapshotVCluster({ name: "b", namespace: "ns1", snapshotName: "b-1", labels: { kind: "nightly" } });
  await t.vc.snapshotVCluster({ name: "a", namespace: "ns2", snapshotName: "x-1" });
});
afterEach(async () => {
  await t.close();
});

const names = (reply: { snapshots: { name: string }[] }) => reply.snapshots.map((s) => s.name);

describe("SnapshotService", () => {
  it.each([
    [{}, ["a-1", "a-2", "b-1", "x-1"]],
    [{ namespace: "ns1" }, ["a-1", "a-2", "b-1"]],
    [{ namespace: "ns1", vclusterName: "a" }, ["a-1", "a-2"]],
    [{ vclusterName: "a" }, ["a-1", "a-2", "x-1"]],
    [{ labelSelector: "kind=nightly" }, ["a-1", "b-1"]],
  ])("lists %j oldest first", async (request, expected) => {
    const reply = await t.snap.listSnapshots(request);
    expect([names(reply), reply.totalCount]).toEqual([expected, expected.length]);
  });

  it("pages snapshots with tokens", async () => {
    const first = await t.snap.listSnapshots({ pageSize: 3 });
    const second = await t.snap.listSnapshots({ pageSize: 3, pageToken: first.nextPageToken });
    expect([names(first), names(second), second.nextPageToken]).toEqual([["a-1", "a-2", "b-1"], ["x-1"], ""]);
  });

  it("gets a snapshot by id or by namespace and name", async () => {
    const [a1] = (await t.snap.listSnapshots({ namespace: "ns1" })).snapshots;
    expect((await t.snap.getSnapshot({ id: a1.id })).snapshot).toEqual(a1);
    expect((await t.snap.getSnapshot({ name: "a-1", namespace: "ns1" })).snapshot).toEqual(a1);
    expect(a1.status).toBe(SnapshotStatus.READY);
    expect(await codeOf(t.snap.getSnapshot({ name: "a-1", namespace: "ns2" }))).toBe(Code.NotFound);
    expect(await codeOf(t.snap.getSnapshot({}))).toBe(Code.InvalidArgument);
  });

  it("deletes a READY snapshot at once and answers NOT_FOUND afterwards", async () => {
    const [a1] = (await t.snap.listSnapshots({})).snapshots;
    const reply = await t.snap.deleteSnapshot({ id: a1.id });
    expect(reply.deleteTime!.seconds).toBe(1_700_000_003n);
    expect(await codeOf(t.snap.getSnapshot({ id: a1.id }))).toBe(Code.NotFound);
    expect(await codeOf(t.snap.deleteSnapshot({ id: a1.id }))).toBe(Code.NotFound);
  });

  it("refuses to delete a CREATING snapshot unless forced", async () => {
    const creating = (await t.snap.getSnapshot({ name: "a-2", namespace: "ns1" })).snapshot!;
    expect(creating.status).toBe(SnapshotStatus.CREATING);
    const error = await errorOf(t.snap.deleteSnapshot({ id: creating.id }));
    expect([error.code, error.rawMessage]).toEqual([Code.FailedPrecondition, `snapshot "${creating.id}" is still CREATING; wait for it or set force`]);
    expect(await codeOf(t.snap.deleteSnapshot({ id: creating.id, force: true }))).toBe("OK");
  });

  it("shows snapshots in the admin view", async () => {
    const { snapshots } = (await t.http("GET", "/_local/vcluster/snapshots")).body as { snapshots: { name: string; status: string }[] };
    expect(snapshots.map((s) => [s.name, s.status])).toEqual([["a-1", "READY"], ["a-2", "CREATING"], ["b-1", "CREATING"], ["x-1", "CREATING"]]);
  });

  it("shows vclusters with phase, spec and replicas in the admin view", async () => {
    await t.vc.scaleVCluster({ name: "b", namespace: "ns1", replicas: 3 });
    const { vclusters } = (await t.http("GET", "/_local/vcluster/vclusters")).body as { vclusters: Record<string, unknown>[] };
    expect(vclusters.find((v) => v.name === "b" && v.namespace === "ns1")).toMatchObject({
      phase: "SCALING",
      spec: { kubernetes_version: "1.28.0", distro: "k3s", replicas: 3 },
      replicas: { desired: 3 },
      operationsInFlight: ["snapshot", "scale"],
    });
  });
});
