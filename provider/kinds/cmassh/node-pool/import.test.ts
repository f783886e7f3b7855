import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { cmasshNodePool } from "./kind";

const nodePoolHandler = testHandler(cmasshNodePool);
const nodePoolImport = testImporter(cmasshNodePool);

const pool = { __provider: "p", owner: "0123456789abcdef", resourceName: "batch", name: "batch", clusterName: "prod-eu", instanceType: "gpu", count: 2, labels: { team: "ml" } };

let t: TestPlane;
let config: ConfigReader;
let created: Record<string, unknown>;
let id: string;
// One plane, cluster and pool for the file: a pool create waits out cma-ssh's settling time.
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await nodePoolHandler.configure(config);
  // The cluster straight on the platform: only the pool is created (and imported) through the provider.
  await t.cmassh.createCluster({ name: "prod-eu", k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
  created = (await nodePoolHandler.check({}, pool)).inputs;
  ({ id } = await nodePoolHandler.create(created));
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

describe("cmassh:NodePool import", () => {
  it("imports a pool by cluster/pool with only reads; machine type, count and labels come from the program", async () => {
    expect(id).toBe("prod-eu/batch");
    const result = await importRoundTrip({ t, config, handler: nodePoolHandler, importer: nodePoolImport, id, created });
    expect(result.inputs).toEqual({ clusterName: "prod-eu", name: "batch", autoNamed: false, owner: "fedcba9876543210", resourceName: "imported" });
    expect(result.props).toMatchObject({ clusterStatus: "RUNNING", importUnreported: ["instanceType", "count", "labels"] });
  });

  it("fails clearly on a wrong-shaped id, a pool of a cluster that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: nodePoolHandler, importer: nodePoolImport }, "batch", "gone/batch");
  });
});
