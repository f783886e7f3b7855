import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { IMPORT_IDENTITY, importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { cyclecloudNodePool } from "./kind";

const nodePoolHandler = testHandler(cyclecloudNodePool);
const nodePoolImport = testImporter(cyclecloudNodePool);

const settings: Record<string, string> = { "clusterform:cyclecloudUsername": "admin", "clusterform:cyclecloudPassword": "admin" };
let t: TestPlane;
let config: ConfigReader;
beforeAll(async () => {
  // Time scale 0: every node transition completes at once.
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : settings[key]) };
  await nodePoolHandler.configure(config);
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

const raw = { __provider: "p", resourceName: "workers", clusterName: "demo", nodearray: "execute" };

describe("cyclecloud:NodePool import", () => {
  it("imports a pool by cluster/nodearray/base with only reads, its shaping inputs confirmed by the base's hash", async () => {
    const created = (await nodePoolHandler.check({}, { ...raw, owner: "0123456789abcdef", count: 2, nodeAttributes: { KeepAlive: true } })).inputs;
    const { id, outs } = await nodePoolHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: nodePoolHandler, importer: nodePoolImport, id, created });
    expect(result.props).toMatchObject({ nodeIds: outs.nodeIds, nodeNames: outs.nodeNames, readyCount: 2, requestSeq: 1, coresPerNode: outs.coresPerNode });
    expect(result.props).not.toHaveProperty("importUnreported");
  });

  it("counts the nodes of every request of a pool that grew", async () => {
    const created = (await nodePoolHandler.check({}, { ...raw, owner: "1111111111111111", count: 1 })).inputs;
    const first = await nodePoolHandler.create(created);
    const grown = (await nodePoolHandler.check(created, { ...raw, owner: "1111111111111111", count: 3 })).inputs;
    const { outs } = await nodePoolHandler.update(first.id, first.outs, grown);
    const result = await importRoundTrip({ t, config, handler: nodePoolHandler, importer: nodePoolImport, id: first.id, created: grown });
    expect(result.props).toMatchObject({ nodeIds: outs.nodeIds, requestSeq: 2, readyCount: 3 });
  });

  it("recovers a name format and offset that the node names reveal and the base's hash confirms", async () => {
    const shaping = { nameFormat: "big-%d", nameOffset: 5, machineType: "Standard_F2s_v2" };
    const created = (await nodePoolHandler.check({}, { ...raw, owner: "3333333333333333", count: 2, ...shaping })).inputs;
    const { id } = await nodePoolHandler.create(created);
    const result = await nodePoolImport.importObject(id, IMPORT_IDENTITY, config);
    expect(result.inputs).toEqual({ clusterName: "demo", nodearray: "execute", ...shaping, count: 2, ...IMPORT_IDENTITY });
    expect(result.props).not.toHaveProperty("importUnreported");
  });

  it("leaves the name format to the program when the base's hash cannot confirm the inputs", async () => {
    // `%d` inside the name: the node names do not show where the format's number goes.
    const created = (await nodePoolHandler.check({}, { ...raw, owner: "2222222222222222", count: 1, nameFormat: "n%d-big", machineType: "Standard_F2s_v2" })).inputs;
    const { id } = await nodePoolHandler.create(created);
    const result = await nodePoolImport.importObject(id, IMPORT_IDENTITY, config);
    expect(result.inputs).toEqual({ clusterName: "demo", nodearray: "execute", machineType: "Standard_F2s_v2", count: 1, ...IMPORT_IDENTITY });
    expect(result.props.importUnreported).toEqual(["nameFormat", "nameOffset", "nodeAttributes"]);
    const program = (await nodePoolHandler.check(result.inputs, { ...raw, ...IMPORT_IDENTITY, count: 1, nameFormat: "n%d-big", machineType: "Standard_F2s_v2" })).inputs;
    expect(await nodePoolHandler.diff(id, result.props, program)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("fails clearly on a wrong-shaped id, a pool that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: nodePoolHandler, importer: nodePoolImport }, "demo/execute", "demo/execute/clusterform-0000000000000000-00000000");
  });
});
