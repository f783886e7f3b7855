import { describe, expect, it } from "vitest";
import { allKinds } from ".";

// What every kind's lookups (definition/lookup.ts) must hold, whichever engine serves them.
describe("the lookups of every kind", () => {
  it("every kind has a lookup of one object by the identity its import uses", async () => {
    for (const kind of await allKinds()) {
      const objects = (kind.lookups ?? []).filter((l) => l.form === "object");
      expect(objects.map((l) => l.name), kind.type).toEqual([`get${kind.type.split(":")[1]}`]);
    }
  });

  it("lookup names are verbs unique on their platform (the Pulumi token and the data source derive from them)", async () => {
    const byPlatform = new Map<string, string[]>();
    for (const kind of await allKinds()) {
      for (const l of kind.lookups ?? []) {
        expect(l.name).toMatch(/^get[A-Z][A-Za-z]+$/);
        byPlatform.set(l.platform, [...(byPlatform.get(l.platform) ?? []), l.name]);
      }
    }
    for (const [platform, names] of byPlatform) expect(new Set(names).size, platform).toBe(names.length);
  });

  it("an object's lookup returns the kind's outputs with the same secrecy, and its id", async () => {
    for (const kind of await allKinds()) {
      const object = (kind.lookups ?? []).find((l) => l.form === "object");
      expect(object?.result.id, kind.type).toBeDefined();
      for (const [key, output] of Object.entries(kind.outputs)) {
        expect(object?.result[key]?.secret === true, `${kind.type}.${key}`).toBe(output.secret === true);
      }
    }
  });

  it("version discovery: cma-ssh versions and upgrades, Senlin profile and policy types", async () => {
    const names = (await allKinds()).flatMap((k) => (k.lookups ?? []).map((l) => `${l.platform}:${l.name}`));
    expect(names).toEqual(expect.arrayContaining(["cmassh:getVersions", "cmassh:getClusterUpgrades", "senlin:getProfileTypes", "senlin:getPolicyTypes"]));
  });
});
