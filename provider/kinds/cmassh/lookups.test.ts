import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { SILENT } from "../../core/contract";
import { Holds, memoryHoldStore } from "../../core/holds";
import { createCore } from "../../core/runtime";
import { DYNAMIC_ENGINE } from "../../engines/dynamic/engine";
import { callsSince, lastSeq, testHandler, testLookup, unreachableConfig } from "../testing";
import { cmasshCluster } from "./cluster/kind";
import { cmasshNodePool } from "./node-pool/kind";

let t: TestPlane;
let config: ConfigReader;
let kubeconfig: unknown;
const VERSIONS = ["1.31.6", "1.29.0", "1.33.1", "1.30.10"];
// One plane for the file, with a cluster made through the provider and one straight on the platform.
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0, cmasshVersions: VERSIONS });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  const handler = testHandler(cmasshCluster);
  await handler.configure(config);
  const raw = { __provider: "p", owner: "0123456789abcdef", resourceName: "prod", name: "prod-eu", kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };
  ({ kubeconfig } = (await handler.create((await handler.check({}, raw)).inputs)).outs);
  await t.cmassh.createCluster({ name: "other", k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

describe("cmassh:Cluster lookups", () => {
  const lookups = () => testLookup(cmasshCluster, t, config);

  it("getCluster reads a cluster by name with one call: its status and kubeconfig, the version and control plane left out", async () => {
    const { result, calls } = await lookups().run("getCluster", { name: "prod-eu" });
    expect(calls).toEqual(["cmassh:GetCluster"]);
    expect(result).toEqual({ id: "prod-eu", name: "prod-eu", status: "RUNNING", statusMessage: "", kubeconfig });
    expect(String(result.kubeconfig)).toMatch(/^apiVersion: v1/);
    expect(cmasshCluster.lookups?.find((l) => l.name === "getCluster")?.result.kubeconfig.secret).toBe(true);
  });

  it("a resource's get reads the live cluster as a state, with one call and holding nothing", async () => {
    const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT, config });
    const since = await lastSeq(t);
    const { id, state } = await core.observe(cmasshCluster, { id: "prod-eu" });
    expect(await callsSince(t, since)).toEqual(["cmassh:GetCluster"]);
    expect(id).toBe("prod-eu");
    expect(state).toMatchObject({ name: "prod-eu", status: "RUNNING", kubeconfig });
    await expect(core.observe(cmasshCluster, { id: "gone" })).rejects.toThrow(`reading cmassh:Cluster "gone": NOT_FOUND: no such object at the cmassh endpoint ${t.plane.url}`);
  });

  it("getCluster of a missing cluster fails naming the kind, the name and the endpoint", async () => {
    expect(await lookups().fails("getCluster", { name: "nosuch" })).toBe(
      `looking up cmassh:Cluster name "nosuch": NOT_FOUND: no such object at the cmassh endpoint ${t.plane.url}`,
    );
  });

  it("getCluster of an unreachable endpoint fails naming the address", async () => {
    const unreachable = await unreachableConfig(config);
    expect(await lookups().fails("getCluster", { name: "prod-eu" }, unreachable)).toContain(`looking up cmassh:Cluster name "prod-eu" (cmassh endpoint ${unreachable.url} unreachable)`);
  });

  it("refuses a name cma-ssh would refuse, before any call", async () => {
    const failures = await lookups().refused("getCluster", { name: "Prod_EU" });
    expect(failures.map((f) => f.property)).toEqual(["name"]);
  });

  it("getClusters lists every cluster with one call", async () => {
    const { result, calls } = await lookups().run("getClusters");
    expect(calls).toEqual(["cmassh:GetClusterList"]);
    const clusters = result.clusters as Record<string, unknown>[];
    expect(clusters.map((c) => [c.id, c.name, c.status]).sort()).toEqual([
      ["other", "other", "RUNNING"],
      ["prod-eu", "prod-eu", "RUNNING"],
    ]);
  });

  it("getVersions offers a new cluster the whole catalogue, oldest first, and names the newest", async () => {
    const { result, calls } = await lookups().run("getVersions");
    expect(calls).toEqual(["cmassh:GetUpgradeClusterInformation"]);
    expect(result).toEqual({ versions: ["1.29.0", "1.30.10", "1.31.6", "1.33.1"], newest: "1.33.1" });
  });

  it("getVersions with a prefix keeps one line, by whole components, with one call", async () => {
    const minor = await lookups().run("getVersions", { prefix: "1.31" });
    expect(minor.calls).toEqual(["cmassh:GetUpgradeClusterInformation"]);
    expect(minor.result).toEqual({ versions: ["1.31.6"], newest: "1.31.6" });
    expect((await lookups().run("getVersions", { prefix: "v1.30." })).result).toEqual({ versions: ["1.30.10"], newest: "1.30.10" });
    expect((await lookups().run("getVersions", { prefix: "1.30.x" })).result).toEqual({ versions: ["1.30.10"], newest: "1.30.10" });
    expect((await lookups().run("getVersions", { prefix: "1" })).result).toEqual({ versions: ["1.29.0", "1.30.10", "1.31.6", "1.33.1"], newest: "1.33.1" });
    // "1.3" is not the start of 1.30.10: no version of that line, and no newest.
    expect((await lookups().run("getVersions", { prefix: "1.3" })).result).toEqual({ versions: [] });
  });

  it("getVersions refuses a prefix that is not the start of a version, before any call", async () => {
    const failures = await lookups().refused("getVersions", { prefix: "1.x.3" });
    expect(failures.map((f) => [f.property, f.reason])).toEqual([["prefix", 'prefix must be the start of a version, MAJOR or MAJOR.MINOR such as "1.31" or "1.31.x", got "1.x.3"']]);
    // A number (Pulumi YAML turns stack config 1.30 into one) is refused saying how to write the line.
    const number = await lookups().refused("getVersions", { prefix: 1.3 });
    expect(number.map((f) => f.reason)).toEqual([expect.stringContaining('got 1.3 (a number: write the line as a string, "1.30" or "1.30.x"')]);
  });

  it("getClusterUpgrades offers the versions from the cluster's own up, and fails for a missing cluster", async () => {
    const { result, calls } = await lookups().run("getClusterUpgrades", { name: "prod-eu" });
    expect(calls).toEqual(["cmassh:GetUpgradeClusterInformation"]);
    expect(result).toEqual({ name: "prod-eu", versions: ["1.30.10", "1.31.6", "1.33.1"], newest: "1.33.1" });
    expect(await lookups().fails("getClusterUpgrades", { name: "gone" })).toBe(
      `looking up cmassh:Cluster name "gone": NOT_FOUND: no such object at the cmassh endpoint ${t.plane.url}`,
    );
  });
});

describe("cmassh:NodePool lookups", () => {
  const lookups = () => testLookup(cmasshNodePool, t, config);

  it("getNodePool confirms the pool's cluster and reports its status", async () => {
    const { result, calls } = await lookups().run("getNodePool", { clusterName: "prod-eu", name: "batch" });
    expect(calls).toEqual(["cmassh:GetCluster"]);
    expect(result).toMatchObject({ id: "prod-eu/batch", clusterName: "prod-eu", name: "batch", clusterStatus: "RUNNING" });
  });

  it("getNodePool of a pool of a missing cluster fails naming the pool, the cluster and the endpoint", async () => {
    expect(await lookups().fails("getNodePool", { clusterName: "gone", name: "batch" })).toBe(
      `looking up cmassh:NodePool pool "batch" of cluster "gone": NOT_FOUND: no such object at the cmassh endpoint ${t.plane.url}`,
    );
  });
});
