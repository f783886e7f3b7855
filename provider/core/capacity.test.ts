import { describe, expect, it } from "vitest";
import { DYNAMIC_ENGINE } from "../engines/dynamic/engine";
import { capacityOwnerOf, withPlatformCapacity } from "./capacity";
import { SILENT, type Props, type ResourceOperations } from "./contract";
import { defineFields, defineKind, OWNERSHIP } from "./definition/kind";
import { defaulted, inPlace, optional, replace, v } from "./definition/values";
import { Holds, memoryHoldStore } from "./holds";
import { op } from "./plan/operation";
import { createCore } from "./runtime";
import { UNKNOWN } from "./unknown";

/** A made-up kind whose `size` the platform may own within `low..high` (high -1: unbounded). */
const fields = defineFields({
  type: "test:Group",
  description: "A group.",
  hidden: { ...OWNERSHIP },
  inputs: {
    zone: optional(v.oneOf(["a", "b"]), { description: "Zone.", policy: replace }),
    low: defaulted(v.int(0, 100), { description: "Fewest.", defaultValue: 0, policy: inPlace("Resize") }),
    high: defaulted(v.int(-1, 100), { description: "Most.", defaultValue: -1, policy: inPlace("Resize") }),
    size: optional(v.int(0, 100), { description: "Members.", policy: inPlace("Resize"), platformSize: { min: "low", max: "high" } }),
  },
  outputs: {},
  timeouts: { create: "1m", update: "1m", delete: "1m" },
});

const PLATFORM = { capacityOwner: "platform" };

describe("defineFields with a platform size", () => {
  it("adds the capacityOwner input, recorded in the state only, and marks the size's policy with its bounds", () => {
    expect(fields.policies.capacityOwner).toEqual({ kind: "record" });
    expect(fields.policies.size).toEqual({ kind: "update", operation: "Resize", platformSize: { min: "low", max: "high" } });
    expect(fields.allInputs.capacityOwner.description).toContain("Who owns the size (`size`) after create");
  });

  it("adds no capacityOwner to a kind without one", () => {
    const plain = defineFields({ ...fieldsSpec(), inputs: { size: optional(v.int(0, 9), { description: "Members.", policy: inPlace("Resize") }) } });
    expect(Object.keys(plain.allInputs)).toEqual(["size", "timeouts"]);
  });

  it.each([
    ["a size that does not change in place", { size: optional(v.int(0, 9), { description: "M.", policy: replace, platformSize: {} }) }, "size is a platformSize but does not change in place"],
    ["a bound that is no input", { size: optional(v.int(0, 9), { description: "M.", policy: inPlace("R"), platformSize: { max: "most" } }) }, "size's platformSize names bounds that are no inputs: most"],
  ])("refuses %s", (_what, inputs, message) => {
    expect(() => defineFields({ ...fieldsSpec(), inputs })).toThrow(`test:Other: ${message}`);
  });
});

function fieldsSpec() {
  return { type: "test:Other", description: "Other.", hidden: {}, outputs: {}, timeouts: { create: "1m", update: "1m", delete: "1m" } };
}

describe("withPlatformCapacity", () => {
  const olds = { low: 0, high: 10, size: 7, capacityOwner: "platform" };

  it.each<[string, Props, Props, number, { from: number; to: number }[]]>([
    ["the program's size while the program owns it", { low: 0, high: 10, size: 2 }, olds, 2, []],
    ["the live size when the platform owns it", { low: 0, high: 10, size: 2, ...PLATFORM }, olds, 7, []],
    ["the live size inside new bounds", { low: 1, high: 8, size: 2, ...PLATFORM }, olds, 7, []],
    ["the new upper bound when the live size is above it", { low: 0, high: 5, size: 2, ...PLATFORM }, olds, 5, [{ from: 7, to: 5 }]],
    ["the new lower bound when the live size is below it", { low: 9, high: 10, size: 2, ...PLATFORM }, olds, 9, [{ from: 7, to: 9 }]],
    ["the live size under an unbounded upper bound", { low: 0, high: -1, size: 2, ...PLATFORM }, olds, 7, []],
    ["an upper bound of 0", { low: 0, high: 0, size: 0, ...PLATFORM }, olds, 0, [{ from: 7, to: 0 }]],
    ["the live size while a bound is unknown (preview)", { low: 0, high: UNKNOWN, size: 2, ...PLATFORM }, olds, 7, []],
    ["the program's size when the state records none", { low: 0, high: 10, size: 2, ...PLATFORM }, { low: 0, high: 10 }, 2, []],
    ["the live size when the owner was turned on in this change", { low: 0, high: 10, size: 2, ...PLATFORM }, { low: 0, high: 10, size: 4 }, 4, []],
    ["the program's size when the owner was turned back to program", { low: 0, high: 10, size: 2, capacityOwner: "program" }, olds, 2, []],
  ])("keeps %s", (_what, news, before, size, clamps) => {
    const view = withPlatformCapacity(fields.policies, before, news);
    expect(view.news.size).toBe(size);
    expect(view.clamps).toEqual(clamps.map((c) => ({ field: "size", ...c })));
    expect(view.owned).toEqual(capacityOwnerOf(news) === "platform" && typeof before.size === "number" ? ["size"] : []);
  });

  it("changes no other input", () => {
    const news = { zone: "b", low: 0, high: 5, size: 2, ...PLATFORM };
    expect(withPlatformCapacity(fields.policies, olds, news).news).toEqual({ ...news, size: 5 });
  });

  it("reads an absent or unknown owner as the program", () => {
    expect([capacityOwnerOf({}), capacityOwnerOf({ capacityOwner: UNKNOWN }), capacityOwnerOf(PLATFORM)]).toEqual(["program", "program", "platform"]);
  });
});

describe("the core with a platform-owned size", () => {
  const HOLDER = { key: "urn:test::g", label: "g" };

  function setUp() {
    const updates: { news: Props; operations: string[] }[] = [];
    const operations: ResourceOperations<Props> = {
      create: async () => ({ id: "g-1", outs: {} }),
      read: async () => undefined,
      async update(_ctx, _id, _olds, news, plan) {
        updates.push({ news, operations: plan.operations.map((o) => `${o.call} ${JSON.stringify(o.args)}`) });
        // The platform answers the size it has now.
        return { size: news.size };
      },
      delete: async () => undefined,
    };
    const kind = defineKind(fields, {
      identity: () => "g",
      planner: {
        update: (_olds, news, diff, id) => (diff.updates.length > 0 ? [op("Resize", id, { size: news.size, low: news.low, high: news.high }, "resizes")] : []),
        create: () => [],
        delete: () => [],
      },
      operations: async () => operations,
      importer: async () => {
        throw new Error("no import");
      },
    });
    const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    return { core, kind, updates };
  }

  const state = { owner: "o", resourceName: "g", low: 0, high: 10, size: 7, ...PLATFORM };
  const program = (more: Props) => ({ owner: "o", resourceName: "g", low: 0, high: 10, size: 2, ...PLATFORM, ...more });

  it("plans no change when only the live size differs from the program's", async () => {
    const { core, kind } = setUp();
    expect(await core.diff(kind, { holder: HOLDER, id: "g-1", olds: state, news: program({}) })).toEqual({
      changes: false,
      replaces: [],
      deleteFirst: false,
      operations: [],
      platformOwned: ["size"],
    });
  });

  it("plans a bounds change with the live size kept, and names a clamp into new bounds", async () => {
    const { core, kind } = setUp();
    const inside = await core.diff(kind, { holder: HOLDER, id: "g-1", olds: state, news: program({ high: 8 }) });
    expect(inside.operations.map((o) => o.args)).toEqual([{ size: 7, low: 0, high: 8 }]);
    expect(inside.clamps).toBeUndefined();
    const outside = await core.diff(kind, { holder: HOLDER, id: "g-1", olds: state, news: program({ high: 5 }) });
    expect(outside.operations.map((o) => o.args)).toEqual([{ size: 5, low: 0, high: 5 }]);
    expect(outside.clamps).toEqual([{ field: "size", from: 7, to: 5 }]);
  });

  it("updates with the size the plan keeps, and records it rather than the program's", async () => {
    const { core, kind, updates } = setUp();
    const { state: after } = await core.update(kind, { holder: HOLDER, id: "g-1", olds: state, news: program({ high: 5 }) });
    expect(updates).toEqual([{ news: expect.objectContaining({ size: 5, high: 5 }), operations: ['Resize {"size":5,"low":0,"high":5}'] }]);
    expect(after.size).toBe(5);
  });

  it("plans one resize to the program's size when the owner goes back to the program", async () => {
    const { core, kind } = setUp();
    const diff = await core.diff(kind, { holder: HOLDER, id: "g-1", olds: state, news: program({ capacityOwner: "program" }) });
    expect(diff.operations.map((o) => o.args)).toEqual([{ size: 2, low: 0, high: 10 }]);
    expect(diff.platformOwned).toBeUndefined();
  });

  it("records a new owner in the state alone", async () => {
    const { core, kind } = setUp();
    const diff = await core.diff(kind, { holder: HOLDER, id: "g-1", olds: { ...state, capacityOwner: undefined, size: 2 }, news: program({}) });
    expect([diff.changes, diff.operations]).toEqual([true, []]);
  });
});
