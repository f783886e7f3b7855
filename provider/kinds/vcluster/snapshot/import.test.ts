import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { vclusterClient } from "../common";
import { vclusterVCluster } from "../vcluster/kind";
import { vclusterSnapshot } from "./kind";

const vclusterHandler = testHandler(vclusterVCluster);
const snapshotHandler = testHandler(vclusterSnapshot);
const snapshotImport = testImporter(vclusterSnapshot);

let t: TestPlane;
let config: ConfigReader;
let ticking: NodeJS.Timeout;
// Time scale 1 (the plane scales retention with it, as it scales every duration), with the fake
// clock driven quickly so that creates finish at once; a snapshot's 48 hours never run out here.
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 1 });
  ticking = setInterval(() => t.clock.advance(1_000), 2);
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await vclusterHandler.configure(config);
  await snapshotHandler.configure(config);
  const vc = { __provider: "p", owner: "0123456789abcdef", resourceName: "dev", name: "dev", namespace: "team-a" };
  await vclusterHandler.create((await vclusterHandler.check({}, vc)).inputs);
});
afterAll(async () => {
  clearInterval(ticking);
  (await vclusterClient(config)).close();
  await t.close();
  removeDataDirs();
});

const raw = { __provider: "p", owner: "0123456789abcdef", resourceName: "nightly", name: "nightly", vclusterName: "dev", namespace: "team-a" };

describe("vcluster:Snapshot import", () => {
  it("imports a snapshot by id with only reads; includeWorkloads comes from the program", async () => {
    const created = (await snapshotHandler.check({}, { ...raw, description: "before upgrade", retentionHours: 48, labels: { env: "dev" }, includeWorkloads: true })).inputs;
    const { id, outs } = await snapshotHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: snapshotHandler, importer: snapshotImport, id, created });
    expect(result.inputs).toMatchObject({ retentionHours: 48, labels: { env: "dev" } });
    expect(result.props).toMatchObject({ snapshotId: id, status: "READY", storageUri: outs.storageUri, importUnreported: ["includeWorkloads"] });
  });

  it("imports a snapshot kept until deleted without a retention", async () => {
    const created = (await snapshotHandler.check({}, { ...raw, name: "kept" })).inputs;
    const { id } = await snapshotHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: snapshotHandler, importer: snapshotImport, id, created });
    expect(result.inputs).not.toHaveProperty("retentionHours");
  });

  it("fails clearly on a wrong-shaped id, a snapshot that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: snapshotHandler, importer: snapshotImport }, "team-a/nightly", "snap-0-0");
  });
});
