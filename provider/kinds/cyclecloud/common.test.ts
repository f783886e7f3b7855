import { describe, expect, it } from "vitest";
import { resolveCredentials } from "./common";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("resolveCredentials", () => {
  it.each<[string, Record<string, string>, Record<string, string>, { username: string; password: string }]>([
    ["reads both from stack config", { "clusterform:cyclecloudUsername": "u", "clusterform:cyclecloudPassword": "p" }, {}, { username: "u", password: "p" }],
    ["reads both from the environment", {}, { CLUSTERFORM_CYCLECLOUD_USERNAME: "eu", CLUSTERFORM_CYCLECLOUD_PASSWORD: "ep" }, { username: "eu", password: "ep" }],
    [
      "prefers stack config over the environment, each separately",
      { "clusterform:cyclecloudPassword": "p" },
      { CLUSTERFORM_CYCLECLOUD_USERNAME: "eu", CLUSTERFORM_CYCLECLOUD_PASSWORD: "ep" },
      { username: "eu", password: "p" },
    ],
  ])("%s", (_, values, env, expected) => {
    expect(resolveCredentials(config(values), env)).toEqual(expected);
  });

  it("names both places when the password is missing, and asks for --secret", () => {
    expect(() => resolveCredentials(config({ "clusterform:cyclecloudUsername": "u" }), {})).toThrow(
      "reading the CycleCloud credentials: INVALID_CONFIG: no CycleCloud password: set stack config clusterform:cyclecloudPassword (with --secret) or the environment variable CLUSTERFORM_CYCLECLOUD_PASSWORD",
    );
  });
});
