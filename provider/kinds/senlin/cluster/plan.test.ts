import { describe, expect, it } from "vitest";
import { planUpdate } from "../../../core/plan/operation";
import { UNKNOWN } from "../../../core/unknown";
import { senlinCluster } from "./kind";

type Props = Record<string, unknown>;

/** A cluster's state: 7 nodes live (a scaling policy grew it from the program's 2), bounds 0..10, Senlin owning the size. */
const STATE: Props = { name: "web", profile: "p", owner: "o", resourceName: "web", minSize: 0, maxSize: 10, desiredCapacity: 7, capacityOwner: "platform", status: "ACTIVE" };
const program = (more: Props): Props => ({ name: "web", profile: "p", owner: "o", resourceName: "web", minSize: 0, maxSize: 10, desiredCapacity: 2, capacityOwner: "platform", ...more });
const plan = (news: Props, olds: Props = STATE) => planUpdate(senlinCluster.policies, senlinCluster.planner, olds, news, "cid");

describe("senlin cluster with capacityOwner platform", () => {
  it("plans nothing when only the program's desiredCapacity differs from the live size", () => {
    expect(plan(program({})).operations).toEqual([]);
    expect(plan(program({ desiredCapacity: 9 })).operations).toEqual([]);
  });

  it("sends new bounds alone, strict false, when the live size fits them", () => {
    expect(plan(program({ minSize: 1, maxSize: 8 })).operations).toEqual([
      { call: "ResizeCluster", target: "cid", args: { minSize: 1, maxSize: 8, strict: false }, summary: "sets the bounds to 1..8; the size stays Senlin's (7 node(s) when last read)" },
    ]);
  });

  it.each<[string, Props, string, string[] | undefined]>([
    ["below a new maxSize", { maxSize: 5 }, "sets the bounds to 0..5 and clamps the size from 7 to 5 node(s) (outside the new bounds; Senlin truncates it, strict false)", ["capacity-removed"]],
    ["up to a new minSize", { minSize: 9, desiredCapacity: 9 }, "sets the bounds to 9..10 and clamps the size from 7 to 9 node(s) (outside the new bounds; Senlin truncates it, strict false)", undefined],
  ])("names the clamp %s in the plan, still sending the bounds alone", (_what, more, summary, disruptions) => {
    const [resize] = plan(program(more)).operations;
    expect(resize).toEqual({ call: "ResizeCluster", target: "cid", args: { minSize: program(more).minSize, maxSize: program(more).maxSize, strict: false }, summary, ...(disruptions ? { disruptions } : {}) });
  });

  it("clamps to a maxSize of 0 with EXACT_CAPACITY 0, which Senlin's truncation does not do", () => {
    expect(plan(program({ maxSize: 0, desiredCapacity: 0 })).operations.map((o) => o.args)).toEqual([{ adjustmentType: "EXACT_CAPACITY", number: 0, minSize: 0, maxSize: 0, strict: false }]);
  });

  it("plans one EXACT_CAPACITY resize to the program's size when the owner goes back to the program", () => {
    expect(plan(program({ capacityOwner: "program" })).operations).toEqual([
      {
        call: "ResizeCluster",
        target: "cid",
        args: { adjustmentType: "EXACT_CAPACITY", number: 2, minSize: 0, maxSize: 10 },
        summary: "resizes to 2 node(s) (was 7), bounds 0..10",
        disruptions: ["capacity-removed"],
      },
    ]);
  });

  it("keeps the live size while a bound is unknown at preview", () => {
    const [resize] = plan(program({ maxSize: UNKNOWN })).operations;
    expect([resize.args, resize.disruptions]).toEqual([{ minSize: 0, maxSize: UNKNOWN, strict: false }, ["unknown-values"]]);
  });

  it("plans nothing when the owner is turned on over a size that moved", () => {
    const { diff, operations } = plan(program({}), { ...STATE, capacityOwner: undefined });
    expect([diff.records, operations]).toEqual([["capacityOwner"], []]);
  });
});
