import { describe, expect, it } from "vitest";
import { SenlinError } from "./errors";
import { negotiateMicroversion, requireMicroversion } from "./microversion";

describe("negotiateMicroversion", () => {
  it.each<[string | null, [number, number]]>([
    [null, [1, 0]],
    ["compute 2.1", [1, 0]],
    ["clustering 1.2", [1, 2]],
    ["compute 2.1, clustering 1.10", [1, 10]],
    ["CLUSTERING 1.14", [1, 14]],
    ["clustering latest", [1, 14]],
  ])("%j -> %j", (header, version) => {
    expect(negotiateMicroversion(header, [1, 14])).toEqual({ version });
  });

  it("serves `latest` as the configured maximum", () => {
    expect(negotiateMicroversion("clustering latest", [1, 2]).version).toEqual([1, 2]);
  });

  it.each<[string, number, string]>([
    ["clustering 1.15", 406, "Version '1.15' is not supported by the API. Minimum is '1.0' and maximum is '1.14'."],
    ["clustering 2.0", 406, "Version '2.0' is not supported by the API. Minimum is '1.0' and maximum is '1.14'."],
    ["clustering 0.9", 406, "Version '0.9' is not supported by the API. Minimum is '1.0' and maximum is '1.14'."],
    ["clustering 1.x", 400, "API Version String '1.x' is of invalid format. It must be of format 'major.minor'."],
  ])("refuses %j with %i", (header, status, message) => {
    let caught: unknown;
    try {
      negotiateMicroversion(header, [1, 14]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SenlinError);
    expect([(caught as SenlinError).status, (caught as SenlinError).rawMessage]).toEqual([status, message]);
  });
});

describe("requireMicroversion", () => {
  it("passes at and above the feature's version and refuses below it with MethodVersionNotFound", () => {
    expect(() => requireMicroversion([1, 3], "replaceNodes")).not.toThrow();
    expect(() => requireMicroversion([1, 14], "replaceNodes")).not.toThrow();
    // Senlin's MethodVersionNotFound, word for word: no hint of the version needed.
    let caught: unknown;
    try {
      requireMicroversion([1, 2], "replaceNodes");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SenlinError);
    expect([(caught as SenlinError).type, (caught as SenlinError).rawMessage]).toEqual(["MethodVersionNotFound", "API version '1.2' is not supported on this method."]);
  });
});
