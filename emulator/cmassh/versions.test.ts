import { describe, expect, it } from "vitest";
import { compareVersions, DEFAULT_CMASSH_VERSIONS, offeredUpgrades, parseVersion } from "./versions";

describe("parseVersion", () => {
  it.each([
    ["1.30.10", [1, 30, 10]],
    ["v1.2.3", [1, 2, 3]],
    ["1.30", undefined],
    ["1.30.x", undefined],
    ["", undefined],
  ])("parses %j", (input, expected) => {
    expect(parseVersion(input)).toEqual(expected);
  });
});

describe("offeredUpgrades", () => {
  it("offers the current version and the newer ones of the catalogue, ascending", () => {
    expect(offeredUpgrades(["1.33.1", "1.29.14", "1.31.6", "1.30.10"], "1.30.10")).toEqual(["1.30.10", "1.31.6", "1.33.1"]);
  });

  it("compares numerically, not as text", () => {
    expect(compareVersions("1.10.0", "1.9.9")).toBeGreaterThan(0);
    expect(offeredUpgrades(["1.9.9", "1.10.0"], "1.9.0")).toEqual(["1.9.9", "1.10.0"]);
  });

  it("offers only the current version at the newest one", () => {
    expect(offeredUpgrades(DEFAULT_CMASSH_VERSIONS, "1.33.1")).toEqual(["1.33.1"]);
  });
});
