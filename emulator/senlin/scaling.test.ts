import { describe, expect, it } from "vitest";
import { type AdjustmentType, calculateDesired, checkSizeParams, planResize, truncateDesired } from "./scaling";

describe("calculateDesired", () => {
  it.each<[number, AdjustmentType, number, number | undefined, number]>([
    [3, "EXACT_CAPACITY", 5, undefined, 5],
    [3, "EXACT_CAPACITY", 0, undefined, 0],
    [3, "CHANGE_IN_CAPACITY", 2, undefined, 5],
    [3, "CHANGE_IN_CAPACITY", -2, undefined, 1],
    [10, "CHANGE_IN_PERCENTAGE", 50, undefined, 15],
    [10, "CHANGE_IN_PERCENTAGE", 15, undefined, 11],
    [10, "CHANGE_IN_PERCENTAGE", -15, undefined, 9],
    [3, "CHANGE_IN_PERCENTAGE", 10, undefined, 4],
    [3, "CHANGE_IN_PERCENTAGE", -10, undefined, 2],
    [10, "CHANGE_IN_PERCENTAGE", 10, 3, 13],
    [10, "CHANGE_IN_PERCENTAGE", -10, 3, 7],
    [10, "CHANGE_IN_PERCENTAGE", 50, 3, 15],
    [4, "CHANGE_IN_PERCENTAGE", 12.5, undefined, 5],
  ])("current %i, %s %d, min_step %s -> %i", (current, type, number, minStep, expected) => {
    expect(calculateDesired(current, type, number, minStep)).toBe(expected);
  });
});

describe("truncateDesired", () => {
  const cluster = { minSize: 1, maxSize: 5, desiredCapacity: 3 };
  it.each<[number, number | undefined, number | undefined, number]>([
    [0, undefined, undefined, 1],
    [9, undefined, undefined, 5],
    [0, 2, undefined, 2],
    [9, undefined, 7, 7],
    [9, undefined, -1, 9],
    [4, undefined, undefined, 4],
  ])("desired %i with min %s max %s -> %i", (desired, min, max, expected) => {
    expect(truncateDesired(cluster, desired, min, max)).toBe(expected);
  });

  it("leaves growth alone on an unbounded cluster", () => {
    expect(truncateDesired({ minSize: 0, maxSize: -1, desiredCapacity: 0 }, 50)).toBe(50);
  });
});

describe("checkSizeParams", () => {
  const cluster = { minSize: 1, maxSize: 5, desiredCapacity: 3 };
  it.each<[string, number | undefined, number | undefined, number | undefined, string | undefined]>([
    ["fits", 4, undefined, undefined, undefined],
    ["below the cluster's min", 0, undefined, undefined, "The target capacity (0) is less than the cluster's min_size (1)."],
    ["above the cluster's max", 6, undefined, undefined, "The target capacity (6) is greater than the cluster's max_size (5)."],
    ["below a new min", 2, 3, undefined, "The target capacity (2) is less than the specified min_size (3)."],
    ["above a new max", 4, undefined, 3, "The target capacity (4) is greater than the specified max_size (3)."],
    ["a new min above a new max", undefined, 4, 2, "The specified min_size (4) is greater than the specified max_size (2)."],
    ["a new min above the current max", undefined, 6, undefined, "The specified min_size (6) is greater than the current max_size (5) of the cluster."],
    ["a new min above the desired capacity", undefined, 4, undefined, "The specified min_size (4) is greater than the current desired_capacity (3) of the cluster."],
    ["a new max below the current min", undefined, undefined, 0, "The specified max_size (0) is less than the current min_size (1) of the cluster."],
    ["a new max below the desired capacity", undefined, 0, 2, "The specified max_size (2) is less than the current desired_capacity (3) of the cluster."],
    ["an unbounded new max", 40, undefined, -1, undefined],
    ["more nodes than a cluster may hold", 1001, undefined, -1, "The target capacity (1001) is greater than the maximum number of nodes allowed per cluster (1000)."],
    ["a new max above what a cluster may hold", undefined, undefined, 1001, "The specified max_size (1001) is greater than the maximum number of nodes allowed per cluster (1000)."],
  ])("%s", (_, desired, min, max, expected) => {
    expect(checkSizeParams(cluster, desired, min, max)).toBe(expected);
  });

  it("checks a new cluster's own bounds only", () => {
    expect(checkSizeParams(undefined, 3, 1, 2)).toBe("The target capacity (3) is greater than the specified max_size (2).");
    expect(checkSizeParams(undefined, 0, 0, -1)).toBeUndefined();
  });

  it("leaves the cluster's own bounds out when not strict", () => {
    expect(checkSizeParams(cluster, 6, undefined, undefined, false)).toBeUndefined();
    expect(checkSizeParams(cluster, undefined, undefined, 2, false)).toBeUndefined();
  });
});

describe("planResize", () => {
  const cluster = { minSize: 1, maxSize: 5, desiredCapacity: 3 };
  it("applies new bounds with the new capacity", () => {
    expect(planResize(cluster, { adjustmentType: "EXACT_CAPACITY", number: 8, maxSize: 10 })).toEqual({
      ok: true,
      size: { minSize: 1, maxSize: 10, desiredCapacity: 8 },
    });
  });

  it("refuses an out-of-range capacity when strict (the default)", () => {
    expect(planResize(cluster, { adjustmentType: "CHANGE_IN_CAPACITY", number: 4 })).toEqual({
      ok: false,
      message: "The target capacity (7) is greater than the cluster's max_size (5).",
    });
  });

  it("truncates an out-of-range capacity when not strict", () => {
    expect(planResize(cluster, { adjustmentType: "CHANGE_IN_CAPACITY", number: 4, strict: false })).toEqual({
      ok: true,
      size: { minSize: 1, maxSize: 5, desiredCapacity: 5 },
    });
    expect(planResize(cluster, { adjustmentType: "CHANGE_IN_PERCENTAGE", number: -90, strict: false })).toEqual({
      ok: true,
      size: { minSize: 1, maxSize: 5, desiredCapacity: 1 },
    });
  });

  it("changes only the bounds when no adjustment is given", () => {
    expect(planResize(cluster, { minSize: 2 })).toEqual({ ok: true, size: { minSize: 2, maxSize: 5, desiredCapacity: 3 } });
  });

  it.each<[string, { minSize?: number; maxSize?: number }, number]>([
    ["keeps a capacity new bounds hold", { minSize: 2, maxSize: 4 }, 3],
    ["truncates the capacity to a new max_size below it", { maxSize: 2 }, 2],
    ["raises the capacity to a new min_size above it", { minSize: 4, maxSize: 9 }, 4],
  ])("with new bounds alone and strict false, %s (parse_resize_params truncates the cluster's own)", (_what, bounds, desired) => {
    expect(planResize({ ...cluster, minSize: 0 }, { ...bounds, strict: false })).toEqual({
      ok: true,
      size: { minSize: bounds.minSize ?? 0, maxSize: bounds.maxSize ?? 5, desiredCapacity: desired },
    });
  });

  it("refuses new bounds alone that leave the capacity outside them when strict", () => {
    expect(planResize(cluster, { maxSize: 2 })).toEqual({ ok: false, message: "The specified max_size (2) is less than the current desired_capacity (3) of the cluster." });
  });
});
