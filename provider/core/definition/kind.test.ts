import { describe, expect, it } from "vitest";
import { validateInputs } from "../validation";
import { defineFields, OWNERSHIP } from "./kind";
import { defaulted, inPlace, optional, replace, required, v } from "./values";

const spec = {
  type: "test:Thing",
  description: "A thing.",
  hidden: { ...OWNERSHIP },
  inputs: {
    size: required(v.int(0, 10), { description: "Size.", policy: inPlace("Resize") }),
    zone: optional(v.oneOf(["a", "b"]), { description: "Zone.", default: '"a"', policy: replace }),
    floor: defaulted(v.int(0, 5), { description: "Floor.", defaultValue: 0, policy: inPlace("Move") }),
  },
  outputs: {},
  timeouts: { create: "1m", update: "1m", delete: "1m" },
};

describe("defineFields", () => {
  const kind = defineFields(spec);

  it("derives the policy table from each field's policy, hidden inputs and timeouts ignored", () => {
    expect(kind.policies).toMatchObject({
      size: { kind: "update", operation: "Resize" },
      zone: { kind: "replace" },
      floor: { kind: "update", operation: "Move" },
      owner: { kind: "ignore" },
      resourceName: { kind: "ignore" },
      timeouts: { kind: "ignore" },
    });
  });

  it("validates with each field's validator, fills defaults and refuses unknown keys", () => {
    expect(validateInputs(kind.schema, { owner: "o", resourceName: "r", size: 3 }).inputs).toEqual({ owner: "o", resourceName: "r", size: 3, floor: 0 });
    const failures = validateInputs(kind.schema, { owner: "o", resourceName: "r", size: 11, zone: "c", colour: 1 }).failures;
    expect(failures.map((f) => f.property).sort()).toEqual(["colour", "size", "zone"]);
    expect(failures.find((f) => f.property === "size")?.reason).toContain("between 0 and 10, got 11");
  });

  it("takes as seeds of derived names the inputs that force a replacement, in definition order, without `name`", () => {
    const named = defineFields({ ...spec, inputs: { name: optional(v.string(), { description: "Name.", policy: replace }), ...spec.inputs, rack: optional(v.string(), { description: "Rack.", policy: replace }) } });
    expect(named.seeds).toEqual(["zone", "rack"]);
    expect(kind.seeds).toEqual(["zone"]);
  });

  it("refuses a user input without a change policy", () => {
    const broken = { ...spec, inputs: { ...spec.inputs, colour: optional(v.string(), { description: "Colour." }) } };
    expect(() => defineFields(broken)).toThrow("test:Thing: inputs without a change policy: colour");
  });
});
