import { Code } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Phase } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { codeOf, errorOf, startVclusterPlane, type VclusterTestPlane } from "./testing";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
afterEach(async () => {
  await t?.close();
});

/** Five vclusters over two namespaces, created in this order; "b" and "e" still CREATING at the end. */
async function seed(): Promise<void> {
  const rows: [string, string, Record<string, string>][] = [
    ["c", "ns1", { env: "prod", owner: "alice", project: "p1" }],
    ["a", "ns2", { env: "dev", owner: "bob" }],
    ["d", "ns1", { env: "prod", team: "web", owner: "alice", project: "p2" }],
    ["b", "ns1", { env: "dev" }],
    ["e", "ns2", { env: "prod" }],
  ];
  for (const [i, [name, namespace, labels]] of rows.entries()) {
    await t.vc.createVCluster({ name, namespace, labels });
    t.clock.advance([1000, 1000, 1000, 500, 500][i]);
  }
}

const names = (list: { vclusters: { name: string }[] }) => list.vclusters.map((v) => v.name);

describe("ListVClusters", () => {
  it.each([
    [{}, ["b", "c", "d", "a", "e"], 5],
    [{ namespace: "ns1" }, ["b", "c", "d"], 3],
    [{ labelSelector: "env=prod" }, ["c", "d", "e"], 3],
    [{ labelSelector: "env=prod,team" }, ["d"], 1],
    [{ owner: "alice" }, ["c", "d"], 2],
    [{ project: "p2" }, ["d"], 1],
    [{ phases: [Phase.CREATING] }, ["b", "e"], 2],
    [{ phases: [Phase.RUNNING], namespace: "ns2" }, ["a"], 1],
    [{ orderBy: "name" }, ["a", "b", "c", "d", "e"], 5],
    [{ orderBy: "create_time" }, ["c", "a", "d", "b", "e"], 5],
    [{ orderBy: "-create_time" }, ["e", "b", "d", "a", "c"], 5],
  ])("filters and orders %j", async (request, expected, total) => {
    t = await startVclusterPlane();
    await seed();
    const list = await t.vc.listVClusters(request);
    expect([names(list), list.totalCount, list.nextPageToken]).toEqual([expected, total, ""]);
  });

  it("pages with tokens and reports the total of all pages", async () => {
    t = await startVclusterPlane();
    await seed();
    const first = await t.vc.listVClusters({ pageSize: 2, orderBy: "name" });
    const second = await t.vc.listVClusters({ pageSize: 2, orderBy: "name", pageToken: first.nextPageToken });
    const third = await t.vc.listVClusters({ pageSize: 2, orderBy: "name", pageToken: second.nextPageToken });
    expect([names(first), names(second), names(third)]).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect([first.totalCount, third.nextPageToken]).toEqual([5, ""]);
    expect(await codeOf(t.vc.listVClusters({ pageSize: 2, orderBy: "-create_time", pageToken: first.nextPageToken }))).toBe(Code.InvalidArgument);
  });

  it.each([
    [{ orderBy: "size" }, 'invalid order_by "size"'],
    [{ labelSelector: "env in prod" }, 'invalid label_selector "env in prod"'],
  ])("rejects %j with INVALID_ARGUMENT", async (request, message) => {
    t = await startVclusterPlane();
    const error = await errorOf(t.vc.listVClusters(request));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage.startsWith(message)).toBe(true);
  });

  it("never carries kubeconfigs", async () => {
    t = await startVclusterPlane({ timeScale: 0 });
    await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const [vc] = (await t.vc.listVClusters({})).vclusters;
    expect([vc.status!.phase, vc.status!.kubeconfig]).toEqual([Phase.RUNNING, ""]);
  });
});

describe("UpdateVCluster", () => {
  const dev = { name: "dev", namespace: "ns" };

  async function created() {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ ...dev, spec: { replicas: 1, helmValues: "a: 1", resources: { cpuLimit: "1" } }, labels: { env: "dev", team: "x" } });
    t.clock.advance(2000);
  }

  it("changes only the masked spec fields and records the mask", async () => {
    await created();
    const reply = await t.vc.updateVCluster({
      ...dev,
      spec: { replicas: 3, helmValues: "ignored", kubernetesVersion: "1.29.0" },
      updateMask: { paths: ["spec.replicas", "spec.kubernetes_version"] },
    });
    expect(reply.vcluster!.spec).toMatchObject({ replicas: 3, helmValues: "a: 1", kubernetesVersion: "1.29.0", resources: { cpuLimit: "1" } });
    expect(reply.vcluster!.status).toMatchObject({ phase: Phase.RUNNING, observedGeneration: 2n });
    expect(reply.vcluster!.labels).toEqual({ env: "dev", team: "x" });
    const masks = (await t.http("GET", "/_local/vcluster/update-masks")).body;
    expect(masks).toEqual({ updates: [{ time: "2023-11-14T22:13:22.000Z", namespace: "ns", name: "dev", paths: ["spec.replicas", "spec.kubernetes_version"] }] });
  });

  it("replaces labels when the mask names them, merges them when there is no mask", async () => {
    await created();
    await t.vc.updateVCluster({ ...dev, labels: { team: "y", tier: "web" } });
    expect((await t.vc.getVCluster(dev)).vcluster!.labels).toEqual({ env: "dev", team: "y", tier: "web" });
    await t.vc.updateVCluster({ ...dev, labels: { only: "this" }, updateMask: { paths: ["labels"] } });
    expect((await t.vc.getVCluster(dev)).vcluster!.labels).toEqual({ only: "this" });
  });

  it("replaces the whole spec (defaults filled in) when there is no mask, as the reference server does", async () => {
    await created();
    const reply = await t.vc.updateVCluster({ ...dev, spec: { replicas: 2 } });
    expect(reply.vcluster!.spec).toMatchObject({ replicas: 2, helmValues: "", kubernetesVersion: "1.28.0", distro: "k3s" });
    expect(reply.vcluster!.spec!.resources).toBeUndefined();
    const masks = (await t.http("GET", "/_local/vcluster/update-masks")).body as { updates: { paths: string[] }[] };
    expect(masks.updates.map((u) => u.paths)).toEqual([[]]);
  });

  it.each([
    [{ updateMask: { paths: ["spec.bogus"] } }, Code.InvalidArgument],
    [{ spec: { distro: "k9s" }, updateMask: { paths: ["spec.distro"] } }, Code.InvalidArgument],
    [{ name: "ghost" }, Code.NotFound],
  ])("rejects %j", async (extra, code) => {
    await created();
    expect(await codeOf(t.vc.updateVCluster({ ...dev, ...extra }))).toBe(code);
  });

  it("is refused while DELETING", async () => {
    await created();
    await t.vc.deleteVCluster(dev);
    expect(await codeOf(t.vc.updateVCluster({ ...dev, labels: { a: "b" } }))).toBe(Code.FailedPrecondition);
  });
});
