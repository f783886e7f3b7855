import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMON_IGNORED, deepEqual, type PolicyTable, planDiff } from "./planner";
import { UNKNOWN } from "./unknown";

const table: PolicyTable = {
  ...COMMON_IGNORED,
  name: { kind: "replace" },
  k8sVersion: { kind: "update", operation: "UpgradeCluster" },
  count: { kind: "update", operation: "ScaleNodePool" },
  labels: { kind: "replace" },
};

const olds = { __provider: "p1", name: "prod", k8sVersion: "1.13.4", count: 2, labels: { a: "1", b: "2" }, kubeconfig: "secret" };
const news = { __provider: "p2", name: "prod", k8sVersion: "1.13.4", count: 2, labels: { b: "2", a: "1" } };

describe("planDiff", () => {
  it("plans nothing when only ignored fields and old outputs differ", () => {
    expect(planDiff(table, olds, { ...news, timeouts: { create: "5m" } })).toEqual({
      changes: false,
      replaces: [],
      updates: [],
      records: [],
      stables: ["name", "k8sVersion", "count", "labels"],
    });
  });

  it("scales the pool in place when `count` changes", () => {
    expect(planDiff(table, olds, { ...news, count: 3 })).toEqual({
      changes: true,
      replaces: [],
      updates: [{ field: "count", operation: "ScaleNodePool" }],
      records: [],
      stables: ["name", "k8sVersion", "labels"],
    });
  });

  it("replaces when an identity field changes, listing in-place changes too", () => {
    expect(planDiff(table, olds, { ...news, name: "prod2", k8sVersion: "1.14.0" })).toEqual({
      changes: true,
      replaces: ["name"],
      updates: [{ field: "k8sVersion", operation: "UpgradeCluster" }],
      records: [],
      stables: ["count", "labels"],
    });
  });

  it("counts an unknown value as a change, even one deep inside a field", () => {
    const unknownOlds = { ...olds, count: UNKNOWN, labels: { a: UNKNOWN } };
    const plan = planDiff(table, unknownOlds, { ...news, count: UNKNOWN, labels: { a: UNKNOWN } });
    expect([plan.replaces, plan.updates]).toEqual([["labels"], [{ field: "count", operation: "ScaleNodePool" }]]);
  });

  it("treats a missing field and an undefined one as equal", () => {
    expect(planDiff(table, { name: "a", count: undefined }, { name: "a" }).changes).toBe(false);
  });

  it("keeps what the object has for a field the platform defaults when the program leaves it out, and plans a change once it gives one", () => {
    const table: PolicyTable = { distro: { kind: "replace", absentKeeps: true }, version: { kind: "update", operation: "Upgrade", absentKeeps: true }, size: { kind: "update", operation: "Resize" } };
    const imported = { distro: "k3s", version: "1.28.0", size: 1 };
    expect(planDiff(table, imported, { size: 1 })).toEqual({ changes: false, replaces: [], updates: [], records: [], stables: ["distro", "version", "size"] });
    expect(planDiff(table, imported, { distro: "k0s", version: "1.29.0", size: 1 })).toMatchObject({ replaces: ["distro"], updates: [{ field: "version", operation: "Upgrade" }] });
    expect(planDiff(table, imported, {})).toMatchObject({ updates: [{ field: "size", operation: "Resize" }] });
  });

  it("throws on a field without a policy", () => {
    expect(() => planDiff(table, olds, { ...news, zone: "b", size: 1 })).toThrow('planDiff: no field policy for "zone", "size"');
  });
});

describe("deepEqual", () => {
  it.each<[unknown, unknown, boolean]>([
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: undefined }, {}, true],
    [{ a: null }, {}, false],
    [[1], { 0: 1 }, false],
    ["1", 1, false],
    [{ a: [1, 2] }, { a: [1, 2, 3] }, false],
  ])("compares %j and %j as %s", (a, b, expected) => {
    expect([deepEqual(a, b), deepEqual(b, a)]).toEqual([expected, expected]);
  });
});

const value = fc.oneof(
  fc.constantFrom("a", "b", 1, 2, true),
  fc.array(fc.constantFrom("x", "y"), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("k1", "k2"), fc.constantFrom("v1", "v2")),
);
const inputs = fc.record({ __provider: fc.string(), timeouts: value, name: value, k8sVersion: value, count: value, labels: value });

describe("planDiff properties", () => {
  it("an empty diff plans no operation", () => {
    fc.assert(
      fc.property(inputs, (props) => {
        const plan = planDiff(table, props, structuredClone(props));
        expect([plan.changes, plan.replaces, plan.updates]).toEqual([false, [], []]);
      }),
    );
  });

  it("any change to a replace field always appears in replaces", () => {
    fc.assert(
      fc.property(inputs, value, fc.constantFrom("name", "labels"), (props, next, field) => {
        fc.pre(!deepEqual(props[field], next));
        const plan = planDiff(table, props, { ...props, [field]: next });
        expect(plan.replaces).toContain(field);
        expect(plan.changes).toBe(true);
      }),
    );
  });

  it("ignored fields never cause changes", () => {
    fc.assert(
      fc.property(inputs, fc.string(), value, (props, provider, timeouts) => {
        const plan = planDiff(table, props, { ...props, __provider: provider, timeouts });
        expect(plan.changes).toBe(false);
      }),
    );
  });
});
