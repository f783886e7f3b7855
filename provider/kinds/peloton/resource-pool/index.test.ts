import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { pelotonResourcePool } from "./kind";
import { testHandler } from "../../testing";

const resourcePoolHandler = testHandler(pelotonResourcePool);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const raw: Props = { __provider: PROVIDER, owner: "0123456789abcdef", resourceName: "compute" };
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

describe("resourcePoolHandler.check", () => {
  it("fills the root parent, a derived name and a deterministic id", async () => {
    const { inputs, failures } = await resourcePoolHandler.check({}, raw);
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ ...raw, parent: "root", name: expect.stringMatching(/^compute-[0-9a-f]{7}$/), respoolId: UUID });
    expect((await resourcePoolHandler.check({}, raw)).inputs).toEqual(inputs);
  });

  it("gives a pool under another parent another id, and an unknown one while the parent is unknown", async () => {
    const root = (await resourcePoolHandler.check({}, raw)).inputs as Props;
    const nested = (await resourcePoolHandler.check({}, { ...raw, parent: "/infrastructure" })).inputs as Props;
    expect(nested.respoolId).toEqual(UUID);
    expect(nested.respoolId).not.toBe(root.respoolId);
    expect((await resourcePoolHandler.check({}, { ...raw, parent: UNKNOWN })).inputs).toMatchObject({ respoolId: UNKNOWN });
  });

  it("accepts every field", async () => {
    const all = {
      name: "compute",
      parent: "/infrastructure",
      resources: [{ kind: "cpu", reservation: 4, limit: 8, share: 1, type: "STATIC" }, { kind: "memory", reservation: 0, limit: 1024 }],
      policy: "PRIORITY_FIFO",
      controllerLimit: { maxPercent: 10 },
      slackLimit: { maxPercent: 20 },
      owningTeam: "infra",
      ldapGroups: ["infra"],
      description: "compute pool",
      timeouts: { create: "1m" },
    };
    expect((await resourcePoolHandler.check({}, { ...raw, ...all })).failures).toEqual([]);
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a name with '/'", { name: "a/b" }, [{ property: "name", reason: 'name must be 1 to 255 characters without "/", got "a/b"' }]],
    ["an empty parent", { parent: "" }, [{ property: "parent", reason: 'parent must be "root", a pool id, or an absolute path such as "/infrastructure/compute", got ""' }]],
    ["an unknown resource kind", { resources: [{ kind: "tpu", reservation: 1, limit: 1 }] }, [{ property: "", reason: 'resources[0].kind must be one of "cpu", "memory", "disk" or "gpu", got "tpu"' }]],
    ["a limit below the reservation", { resources: [{ kind: "cpu", reservation: 5, limit: 1 }] }, [{ property: "", reason: "resources[0].limit must be at least the reservation 5, got 1" }]],
    ["a negative reservation", { resources: [{ kind: "cpu", reservation: -1, limit: 1 }] }, [{ property: "", reason: "resources[0].reservation must be a number of at least 0, got -1" }]],
    [
      "one kind twice",
      { resources: [{ kind: "cpu", reservation: 1, limit: 2 }, { kind: "cpu", reservation: 1, limit: 2 }] },
      [{ property: "", reason: 'resources[1].kind must be unique: "cpu" appears twice' }],
    ],
    ["a controller limit above 100%", { controllerLimit: { maxPercent: 150 } }, [{ property: "", reason: "controllerLimit.maxPercent must be a number from 0 to 100, got 150" }]],
    ["an unknown policy", { policy: "FAIR" }, [{ property: "policy", reason: 'policy must be one of "PRIORITY_FIFO", got "FAIR"' }]],
    ["LDAP groups as a string", { ldapGroups: "x" }, [{ property: "ldapGroups", reason: 'ldapGroups must be an array, got "x"' }]],
  ])("rejects %s", async (_, patch, failures) => {
    expect((await resourcePoolHandler.check({}, { ...raw, ...patch })).failures).toEqual(failures);
  });
});

describe("resourcePoolHandler.diff", () => {
  const olds = { ...raw, parent: "root", name: "compute-1", respoolId: "11111111-2222-8333-8444-555555555555" };
  it.each<[string, Props, { changes: boolean; replaces: string[] }]>([
    ["nothing changed", {}, { changes: false, replaces: [] }],
    ["resources: in place (UpdateResourcePool)", { resources: [{ kind: "cpu", reservation: 1, limit: 2 }] }, { changes: true, replaces: [] }],
    ["name: in place (UpdateResourcePool)", { name: "compute-2" }, { changes: true, replaces: [] }],
    ["description: in place", { description: "x" }, { changes: true, replaces: [] }],
    ["parent replaces", { parent: "/infrastructure" }, { changes: true, replaces: ["parent"] }],
    ["timeouts change nothing", { timeouts: { delete: "1m" } }, { changes: false, replaces: [] }],
  ])("%s", async (_, patch, expected) => {
    const result = await resourcePoolHandler.diff("id", olds, { ...olds, ...patch });
    expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
  });
});
