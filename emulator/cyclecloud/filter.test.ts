import { describe, expect, it } from "vitest";
import { compileFilter, FilterError } from "./filter";

const node = {
  Name: "execute-1",
  State: "Ready",
  Template: "execute",
  KeepAlive: false,
  Fixed: true,
  CoreCount: 4,
  Configuration: { role: "worker", slots: 2 },
};

describe("compileFilter", () => {
  it.each([
    ['State === "Ready"', true],
    ['State === "Started"', false],
    ["State == 'Ready'", true],
    ['State !== "Ready"', false],
    ['State != "Off"', true],
    ['"Ready" === State', true],
    ["CoreCount >= 4", true],
    ["CoreCount > 4", false],
    ["CoreCount < 5", true],
    ["CoreCount <= 3", false],
    ['Name < "f"', true],
    ['CoreCount < "5"', false],
    ["Fixed", true],
    ["KeepAlive", false],
    ["!KeepAlive", true],
    ["Fixed === true", true],
    ["Missing === null", false],
    ['Configuration.role === "worker"', true],
    ["Configuration.slots === 2", true],
    ["Configuration.nothing.deeper", false],
    ['State === "Ready" && Template === "gpu"', false],
    ['State === "Off" || Template === "execute"', true],
    ['State === "Off" || Template === "execute" && KeepAlive', false],
    ['(State === "Off" || Template === "execute") && !KeepAlive', true],
    ['Name === "say \\"hi\\""', false],
  ])("%s is %s for the sample node", (source, expected) => {
    expect(compileFilter(source)(node)).toBe(expected);
  });

  it.each([
    ['State === "Ready" &&', "expected an attribute or a value at position 20, got \"end of filter\""],
    ['State = "Ready"', 'unexpected character "=" at position 6'],
    ['State === "Ready', "unterminated string starting at position 10"],
    ['(State === "Ready"', 'expected ) at position 18, got "end of filter"'],
    ['State === "Ready" Template', 'expected end of filter at position 18, got "Template"'],
    ['State in "Ready"', 'expected end of filter at position 6, got "in"'],
    ["State in {1}", 'unexpected character "{" at position 9'],
    ["", 'expected an attribute or a value at position 0, got "end of filter"'],
  ])("rejects %j: %s", (source, message) => {
    expect(() => compileFilter(source)).toThrow(new FilterError(message));
  });
});
