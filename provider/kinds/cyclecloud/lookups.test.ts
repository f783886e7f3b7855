import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { testHandler, testLookup } from "../testing";
import { cyclecloudNodePool } from "./node-pool/kind";

const settings: Record<string, string> = { "clusterform:cyclecloudUsername": "admin", "clusterform:cyclecloudPassword": "admin" };
const raw = { __provider: "p", resourceName: "workers", clusterName: "demo", nodearray: "execute" };
type Items = Record<string, unknown>[];

let t: TestPlane;
let config: ConfigReader;
let pool: { id: string; outs?: Record<string, unknown> };
let other: { id: string };
beforeAll(async () => {
  // Time scale 0: every node transition completes at once.
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : settings[key]) };
  const pools = testHandler(cyclecloudNodePool);
  await pools.configure(config);
  pool = await pools.create((await pools.check({}, { ...raw, owner: "0123456789abcdef", count: 2 })).inputs);
  other = await pools.create((await pools.check({}, { ...raw, owner: "1111111111111111", count: 1 })).inputs);
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

describe("cyclecloud:NodePool lookups", () => {
  const lookups = () => testLookup(cyclecloudNodePool, t, config);

  it("getNodePool reads a pool by id with two calls: the cluster's nodes and its status", async () => {
    const { result, calls } = await lookups().run("getNodePool", { id: pool.id });
    expect(calls).toEqual(["cyclecloud:GetNodes", "cyclecloud:GetClusterStatus"]);
    expect(result).toMatchObject({ id: pool.id, clusterName: "demo", nodearray: "execute", count: 2, nodeIds: pool.outs?.nodeIds, readyCount: 2 });
  });

  it("getNodePool of a pool that does not exist fails naming the kind, the id and the endpoint", async () => {
    const missing = "demo/execute/clusterform-0123456789abcdef-00000000";
    expect(await lookups().fails("getNodePool", { id: missing })).toBe(`looking up cyclecloud:NodePool id "${missing}": NOT_FOUND: no such object at the cyclecloud endpoint ${t.plane.url}`);
  });

  it("getNodePools lists the pools of a cluster with two calls; a cluster with none, or none of the nodearray, is an empty list", async () => {
    const { result, calls } = await lookups().run("getNodePools", { clusterName: "demo" });
    expect(calls).toEqual(["cyclecloud:GetNodes", "cyclecloud:GetClusterStatus"]);
    expect((result.nodePools as Items).map((p) => [p.id, p.count]).sort()).toEqual(
      [
        [pool.id, 2],
        [other.id, 1],
      ].sort(),
    );
    expect((await lookups().run("getNodePools", { clusterName: "demo", nodearray: "htc" })).result).toEqual({ nodePools: [] });
    expect((await lookups().run("getNodePools", { clusterName: "nosuch" })).result).toEqual({ nodePools: [] });
  });
});
