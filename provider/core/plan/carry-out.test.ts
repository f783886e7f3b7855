import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../unknown";
import { carryOut, op, planUpdate } from "./operation";
import { nodePoolPlanner } from "../../kinds/cmassh/node-pool/plan";

describe("carryOut: an update runs the planned list", () => {
  it("runs each operation by its call's executor, in order, with its arguments", async () => {
    const seen: string[] = [];
    const run = async (o: { call: string; args: Record<string, unknown> }) => seen.push(`${o.call} ${JSON.stringify(o.args)}`);
    await carryOut("x:Kind", [op("Scale", "a", { count: 3 }, "s"), op("Upgrade", "a", { to: "1.2" }, "u"), op("Scale", "a", { count: 1 }, "s")], { Scale: run, Upgrade: run });
    expect(seen).toEqual(['Scale {"count":3}', 'Upgrade {"to":"1.2"}', 'Scale {"count":1}']);
  });

  it("sends nothing when a call has no executor or an argument is still unknown", async () => {
    const seen: string[] = [];
    const run = async (o: { call: string }) => seen.push(o.call);
    await expect(carryOut("x:Kind", [op("Scale", "a", { count: 3 }, "s"), op("Drop", "a", {}, "d")], { Scale: run })).rejects.toThrow(
      "x:Kind: the plan lists Drop, which its update cannot carry out (it runs Scale)",
    );
    await expect(carryOut("x:Kind", [op("Scale", "a", { count: 3 }, "s"), op("Scale", "a", { count: UNKNOWN }, "s")], { Scale: run })).rejects.toThrow(
      "x:Kind: Scale has argument(s) count still unknown at update",
    );
    expect(seen).toEqual([]);
  });
});

describe("planUpdate: the one planning the report and update share", () => {
  it("takes an imported object's unreported inputs from the program before planning", () => {
    const olds = { clusterName: "c", name: "p", count: 2, importUnreported: ["instanceType"] };
    const news = { clusterName: "c", name: "p", count: 2, instanceType: "large" };
    const policies = { clusterName: { kind: "replace" }, name: { kind: "replace" }, count: { kind: "update", operation: "ScaleNodePool" }, instanceType: { kind: "replace" } } as const;
    const plan = planUpdate(policies, nodePoolPlanner, olds, news, "c/p");
    expect([plan.diff.changes, plan.operations]).toEqual([false, []]);
    const scaled = planUpdate(policies, nodePoolPlanner, olds, { ...news, count: 5 }, "c/p");
    expect(scaled.operations.map((o) => [o.call, o.target, o.args])).toEqual([["ScaleNodePool", "c/p", { count: 5 }]]);
  });
});
