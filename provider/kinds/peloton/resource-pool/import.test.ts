import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { pelotonClient } from "../common";
import { pelotonResourcePool } from "./kind";

const resourcePoolHandler = testHandler(pelotonResourcePool);
const resourcePoolImport = testImporter(pelotonResourcePool);

let t: TestPlane;
let config: ConfigReader;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await resourcePoolHandler.configure(config);
});
afterAll(async () => {
  (await pelotonClient(config)).close();
  await t.close();
  removeDataDirs();
});

const identity = { __provider: "p", owner: "0123456789abcdef", resourceName: "batch" };

describe("peloton:ResourcePool import", () => {
  it("imports a pool by id with only reads, the whole spec reported and the pool's own id kept", async () => {
    const created = (
      await resourcePoolHandler.check({}, {
        ...identity,
        name: "batch",
        resources: [
          { kind: "cpu", reservation: 4, limit: 8 },
          { kind: "memory", reservation: 1024, limit: 2048, share: 2, type: "STATIC" },
        ],
        controllerLimit: { maxPercent: 50 },
        slackLimit: { maxPercent: 30 },
        owningTeam: "ml",
        ldapGroups: ["ml-admins"],
        description: "batch jobs",
      })
    ).inputs;
    const { id } = await resourcePoolHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: resourcePoolHandler, importer: resourcePoolImport, id, created });
    expect(result.inputs.respoolId).toBe(id);
    expect(result.props).toMatchObject({ path: "/batch", parentId: "root" });
  });

  it("imports a pool created with only a name to just that", async () => {
    const created = (await resourcePoolHandler.check({}, { ...identity, owner: "1111111111111111", name: "small" })).inputs;
    const { id } = await resourcePoolHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: resourcePoolHandler, importer: resourcePoolImport, id, created });
    expect(result.inputs).toEqual({ name: "small", parent: "root", respoolId: id, owner: "fedcba9876543210", resourceName: "imported" });
  });

  it("fails clearly on a wrong-shaped id, a pool that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: resourcePoolHandler, importer: resourcePoolImport }, "/batch", "00000000-0000-4000-8000-000000000000");
  });
});
