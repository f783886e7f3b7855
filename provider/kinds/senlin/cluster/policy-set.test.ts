import { describe, expect, it } from "vitest";
import { planPolicies } from "./policy-set";

const b = (policy: string, enabled = true) => ({ policy, enabled });

describe("planPolicies", () => {
  it.each([
    ["nothing for the same set", [b("a"), b("b", false)], [b("b", false), b("a")], { detach: [], attach: [], update: [] }],
    ["attaches only the new", [b("a")], [b("a"), b("c")], { detach: [], attach: [b("c")], update: [] }],
    ["detaches only the removed", [b("a"), b("c")], [b("c")], { detach: ["a"], attach: [], update: [] }],
    ["updates only a changed enabled", [b("a"), b("c")], [b("a", false), b("c")], { detach: [], attach: [], update: [b("a", false)] }],
    ["does all three at once", [b("a"), b("c")], [b("c", false), b("d")], { detach: ["a"], attach: [b("d")], update: [b("c", false)] }],
  ])("plans %s", (_, current, wanted, expected) => {
    expect(planPolicies(current, wanted)).toEqual(expected);
  });
});
