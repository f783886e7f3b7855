import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, planeConfig, planeSenlin, testHandler, testImporter } from "../../testing";
import { senlinCluster } from "./kind";

const clusterHandler = testHandler(senlinCluster);
const clusterImport = testImporter(senlinCluster);

const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } };
const POLICY = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };

let t: TestPlane;
let config: ConfigReader;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = planeConfig(t.plane.url);
  await clusterHandler.configure(config);
  const senlin = planeSenlin(t);
  await senlin.createProfile("small", SPEC);
  await senlin.createPolicy("deletion", POLICY);
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

const raw = {
  __provider: "p",
  owner: "0123456789abcdef",
  resourceName: "web",
  name: "web",
  profile: "small",
  minSize: 1,
  maxSize: 4,
  desiredCapacity: 2,
  actionTimeout: "10m",
  metadata: { team: "a", tier: 1 },
  config: { "node.name.format": "w-$3I" },
  policies: [{ policy: "deletion", enabled: false }],
};

describe("senlin:Cluster import", () => {
  it("imports a cluster by id with only reads, every input reported", async () => {
    const created = (await clusterHandler.check({}, raw)).inputs;
    const { id } = await clusterHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: clusterHandler, importer: clusterImport, id, created });
    expect(result.props).toMatchObject({ status: "ACTIVE", desiredCapacity: 2, profileName: "small" });
    expect(result.props).not.toHaveProperty("importUnreported");
  });

  it("leaves out Senlin's defaults, so a cluster created with the fewest inputs imports to them", async () => {
    const created = (await clusterHandler.check({}, { __provider: "p", owner: "0123456789abcdef", resourceName: "bare", name: "bare", profile: "small" })).inputs;
    const { id } = await clusterHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: clusterHandler, importer: clusterImport, id, created });
    expect(result.inputs).toEqual({ name: "bare", autoNamed: false, profile: "small", minSize: 0, maxSize: -1, desiredCapacity: 0, owner: "fedcba9876543210", resourceName: "imported", __schemaVersion: 1 });
  });

  it("fails clearly on a wrong-shaped id, a cluster that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: clusterHandler, importer: clusterImport }, "web", "00000000-0000-4000-8000-000000000000");
  });
});
