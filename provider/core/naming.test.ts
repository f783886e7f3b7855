import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveName, OWNER_LABEL_KEY, ownerMarker } from "./naming";
import { isLabelValue } from "./validation";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

describe("deriveName", () => {
  it.each<[string, string, number, string]>([
    // sha256("seed") starts 19b2585, sha256("other") starts d9298a1.
    ["prod", "seed", 63, "prod-19b2585"],
    ["prod", "other", 63, "prod-d9298a1"],
    ["My_Cluster.Prod", "seed", 63, "my-cluster-prod-19b2585"],
    ["--a  b--", "seed", 63, "a-b-19b2585"],
    ["____", "seed", 63, "19b2585"],
    ["abcdefghij", "seed", 14, "abcdef-19b2585"],
    ["abcde-fghij", "seed", 14, "abcde-19b2585"],
  ])("derives from %j and seed %j (max %d) the name %j", (resourceName, seed, max, expected) => {
    expect(deriveName(resourceName, seed, max)).toBe(expected);
  });

  it("always gives the same DNS-1123 label within the length limit", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), fc.string(), fc.integer({ min: 9, max: 63 }), (name, seed, max) => {
        const derived = deriveName(name, seed, max);
        expect(derived).toMatch(DNS_LABEL);
        expect(derived.length).toBeLessThanOrEqual(max);
        expect(deriveName(name, seed, max)).toBe(derived);
      }),
    );
  });

  it("rejects a limit with no room for the suffix", () => {
    expect(() => deriveName("a", "s", 8)).toThrow("deriveName: maxLength must be at least 9, got 8");
  });
});

describe("ownerMarker", () => {
  it("is 16 hex chars, stable, a valid label value, and tells resources apart", () => {
    const marker = ownerMarker("proj", "dev", "cluster");
    expect(marker).toMatch(/^[0-9a-f]{16}$/);
    expect(isLabelValue(marker)).toBe(true);
    expect(ownerMarker("proj", "dev", "cluster")).toBe(marker);
    expect(ownerMarker("proj", "dev-cluster", "")).not.toBe(ownerMarker("proj-dev", "cluster", ""));
    expect(ownerMarker("proj", "prod", "cluster")).not.toBe(marker);
  });

  it("exports the ownership label key", () => {
    expect(OWNER_LABEL_KEY).toBe("clusterform.dev/owner");
  });
});
