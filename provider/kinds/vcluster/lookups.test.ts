import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { testHandler, testLookup } from "../testing";
import { vclusterClient } from "./common";
import { vclusterSnapshot } from "./snapshot/kind";
import { vclusterVCluster } from "./vcluster/kind";

let t: TestPlane;
let config: ConfigReader;
let ticking: NodeJS.Timeout;
let dev: { id: string; outs?: Record<string, unknown> };
let snapshotId: string;
// Time scale 1 with the fake clock driven quickly, as the import tests do: creates finish at once.
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 1 });
  ticking = setInterval(() => t.clock.advance(1_000), 2);
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  const vclusters = testHandler(vclusterVCluster);
  const snapshots = testHandler(vclusterSnapshot);
  await vclusters.configure(config);
  await snapshots.configure(config);
  const vc = (owner: string, name: string, namespace: string, labels: Record<string, string>) => ({ __provider: "p", owner, resourceName: name, name, namespace, labels });
  dev = await vclusters.create((await vclusters.check({}, vc("0123456789abcdef", "dev", "team-a", { env: "dev" }))).inputs);
  await vclusters.create((await vclusters.check({}, vc("1111111111111111", "prod", "team-b", { env: "prod" }))).inputs);
  const snap = { __provider: "p", owner: "0123456789abcdef", resourceName: "nightly", name: "nightly", vclusterName: "dev", namespace: "team-a", labels: { kind: "nightly" } };
  snapshotId = (await snapshots.create((await snapshots.check({}, snap)).inputs)).id;
});
afterAll(async () => {
  clearInterval(ticking);
  (await vclusterClient(config)).close();
  await t.close();
  removeDataDirs();
});

describe("vcluster:VCluster lookups", () => {
  const lookups = () => testLookup(vclusterVCluster, t, config);

  it("getVCluster reads a vcluster by id with at most two calls, its kubeconfig a secret", async () => {
    const { result, calls } = await lookups().run("getVCluster", { id: dev.id });
    expect(calls).toEqual(["vcluster:ListVClusters", "vcluster:GetVCluster"]);
    expect(result).toMatchObject({ id: dev.id, name: "dev", namespace: "team-a", labels: { env: "dev" }, phase: "RUNNING", kubeconfig: dev.outs?.kubeconfig });
    expect(String(result.kubeconfig)).toMatch(/^apiVersion: v1/);
    expect(vclusterVCluster.lookups?.find((l) => l.name === "getVCluster")?.result.kubeconfig.secret).toBe(true);
  });

  it("getVCluster of a missing id fails naming the kind, the id and the endpoint", async () => {
    expect(await lookups().fails("getVCluster", { id: "vc-0-0" })).toBe(`looking up vcluster:VCluster id "vc-0-0": NOT_FOUND: no such object at the vcluster endpoint ${t.plane.url}`);
  });

  it("getVClusters filters by namespace and labels with one call; no match is an empty list", async () => {
    const byNamespace = await lookups().run("getVClusters", { namespace: "team-b" });
    expect(byNamespace.calls).toEqual(["vcluster:ListVClusters"]);
    expect((byNamespace.result.vclusters as Record<string, unknown>[]).map((v) => [v.name, v.namespace])).toEqual([["prod", "team-b"]]);
    const byLabels = await lookups().run("getVClusters", { labels: { env: "dev" } });
    expect((byLabels.result.vclusters as Record<string, unknown>[]).map((v) => v.id)).toEqual([dev.id]);
    expect((byLabels.result.vclusters as Record<string, unknown>[])[0]).not.toHaveProperty("kubeconfig");
    expect((await lookups().run("getVClusters", { namespace: "nobody" })).result).toEqual({ vclusters: [] });
  });
});

describe("vcluster:Snapshot lookups", () => {
  const lookups = () => testLookup(vclusterSnapshot, t, config);

  it("getSnapshot reads a snapshot by id with one call", async () => {
    const { result, calls } = await lookups().run("getSnapshot", { id: snapshotId });
    expect(calls).toEqual(["vcluster:GetSnapshot"]);
    expect(result).toMatchObject({ id: snapshotId, snapshotId, name: "nightly", vclusterName: "dev", namespace: "team-a", status: "READY" });
    expect(result).not.toHaveProperty("includeWorkloads");
  });

  it("getSnapshots filters by vcluster and labels with one call; no match is an empty list", async () => {
    const { result, calls } = await lookups().run("getSnapshots", { vclusterName: "dev", labels: { kind: "nightly" } });
    expect(calls).toEqual(["vcluster:ListSnapshots"]);
    expect((result.snapshots as Record<string, unknown>[]).map((s) => s.id)).toEqual([snapshotId]);
    expect((await lookups().run("getSnapshots", { vclusterName: "prod" })).result).toEqual({ snapshots: [] });
  });

  it("getSnapshot of a missing id fails naming the kind, the id and the endpoint", async () => {
    expect(await lookups().fails("getSnapshot", { id: "snap-0-0" })).toBe(`looking up vcluster:Snapshot id "snap-0-0": NOT_FOUND: no such object at the vcluster endpoint ${t.plane.url}`);
  });
});
