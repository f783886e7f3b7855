import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { compareVersions, versionChangeFailures } from "./version";

describe("compareVersions", () => {
  it.each<[string, string, number]>([
    ["1.31.6", "1.31.6", 0],
    ["v1.31.6", "1.31.6", 0],
    ["1.31.6", "1.31.7", -1],
    ["1.32.0", "1.31.9", 1],
    ["2.0.0", "1.99.99", 1],
    // Numeric, not lexical: 10 > 9.
    ["1.10.0", "1.9.0", 1],
    ["1.31.10", "1.31.9", 1],
  ])("orders %s against %s as %d", (a, b, sign) => {
    expect([Math.sign(compareVersions(a, b)), Math.sign(compareVersions(b, a))]).toEqual([sign, -sign || 0]);
  });
});

const DOWN = (from: string, to: string) => [
  {
    property: "kubernetesVersion",
    reason: `kubernetesVersion cannot go down from ${from} to ${to}: cma-ssh only upgrades; choose ${from} or a newer version, or replace the cluster`,
  },
];

describe("versionChangeFailures", () => {
  it.each<[string, string, string]>([
    ["a lower patch", "1.31.6", "1.31.5"],
    ["a lower minor with a higher patch", "1.31.6", "1.30.10"],
    ["1.9 after 1.10", "1.10.0", "1.9.0"],
  ])("refuses %s, naming both versions", (_, from, to) => {
    expect(versionChangeFailures({ kubernetesVersion: from }, { kubernetesVersion: to })).toEqual(DOWN(from, to));
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["the same version", { kubernetesVersion: "1.31.6" }, { kubernetesVersion: "1.31.6" }],
    ["an upgrade", { kubernetesVersion: "1.31.6" }, { kubernetesVersion: "1.32.3" }],
    ["an unknown new version", { kubernetesVersion: "1.31.6" }, { kubernetesVersion: UNKNOWN }],
    ["a create (no old version)", {}, { kubernetesVersion: "1.0.0" }],
  ])("allows %s", (_, olds, news) => {
    expect(versionChangeFailures(olds, news)).toEqual([]);
  });
});
