import { describe, expect, it } from "vitest";
import { type CallOf, defineCalls, eitherOf, extendCalls, undecided } from "./calls";
import { carryOut, type Executors, type KindPlanner, op } from "./operation";

const UPDATES = defineCalls("Scale", "Upgrade");
const CALLS = extendCalls(UPDATES, "Create", "Delete");

describe("defineCalls: each call name written once", () => {
  it("maps every name to itself, in the order given, base first", () => {
    expect(Object.entries(CALLS)).toEqual([
      ["Scale", "Scale"],
      ["Upgrade", "Upgrade"],
      ["Create", "Create"],
      ["Delete", "Delete"],
    ]);
    expect(Object.isFrozen(CALLS)).toBe(true);
  });

  it.each<[string, () => unknown, string]>([
    ["a name given twice", () => defineCalls("Scale", "Scale"), "defineCalls: Scale is declared twice"],
    ["a name already in the base", () => extendCalls(UPDATES, "Create", "Upgrade"), "defineCalls: Upgrade is declared twice"],
  ])("refuses %s", (_, declare, message) => {
    expect(declare).toThrow(message);
  });

  it("names a policy's operation of several calls, and an undecided pair, as reports show them", () => {
    expect([eitherOf(CALLS.Create, CALLS.Delete), undecided(CALLS.Scale, CALLS.Upgrade)]).toEqual(["Create/Delete", "Scale|Upgrade"]);
  });
});

describe("the types tie planners and executor tables to the declared calls", () => {
  it("runs a table typed by the update calls", async () => {
    const seen: string[] = [];
    const executors: Executors<typeof UPDATES> = {
      [CALLS.Scale]: async (o) => seen.push(o.call),
      [CALLS.Upgrade]: async (o) => seen.push(o.call),
    };
    await carryOut<typeof UPDATES>("x:Kind", [op(CALLS.Upgrade, "a", {}, "u"), op(CALLS.Scale, "a", {}, "s")], executors);
    expect(seen).toEqual(["Upgrade", "Scale"]);
  });

  it("makes a missing executor, a stray one and an undeclared planned call compile errors; an undecided pair has no executor", async () => {
    const run = async () => undefined;
    const executors: Executors<typeof UPDATES> = { [CALLS.Scale]: run, [CALLS.Upgrade]: run };
    // @ts-expect-error Upgrade has no executor.
    const missing: Executors<typeof UPDATES> = { [CALLS.Scale]: run };
    // @ts-expect-error Create is not an update call.
    const stray: Executors<typeof UPDATES> = { ...executors, [CALLS.Create]: run };
    const planner: KindPlanner<CallOf<typeof CALLS>, CallOf<typeof UPDATES>> = {
      // @ts-expect-error Create is not among the update calls.
      update: () => [op(CALLS.Create, "a", {}, "c")],
      create: () => [op(undecided(CALLS.Scale, CALLS.Upgrade), "a", {}, "resizes or upgrades")],
      // @ts-expect-error Drop is not declared.
      delete: () => [op("Drop", "a", {}, "d")],
    };
    // @ts-expect-error Create is not an update call.
    const notUpdate: CallOf<typeof UPDATES> = CALLS.Create;
    // The checks above are tsc's (an unused @ts-expect-error fails it); at run time the tables are as written.
    expect([Object.keys(missing), Object.keys(stray), notUpdate]).toEqual([["Scale"], ["Scale", "Upgrade", "Create"], "Create"]);
    await expect(carryOut<typeof UPDATES>("x:Kind", planner.create({}), executors)).rejects.toThrow(
      "x:Kind: the plan lists Scale|Upgrade, which its update cannot carry out (it runs Scale, Upgrade)",
    );
  });
});
