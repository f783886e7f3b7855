import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { assertDns1123Label, isDns1123Label } from "./validation";

describe("isDns1123Label", () => {
  it.each([
    ["a", true],
    ["my-cluster-1", true],
    ["0abc", true],
    ["a".repeat(63), true],
    ["a".repeat(64), false],
    ["", false],
    ["My-Cluster", false],
    ["-abc", false],
    ["abc-", false],
    ["a.b", false],
    ["a_b", false],
  ])("%j -> %s", (value, expected) => {
    expect(isDns1123Label(value)).toBe(expected);
  });
});

describe("assertDns1123Label", () => {
  it("throws INVALID_ARGUMENT naming the field and the value", () => {
    let caught: unknown;
    try {
      assertDns1123Label("cluster name", "Bad_Name");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConnectError);
    expect((caught as ConnectError).code).toBe(Code.InvalidArgument);
    expect((caught as ConnectError).rawMessage).toMatch(/^invalid cluster name "Bad_Name": must be a DNS-1123 label/);
  });
});
