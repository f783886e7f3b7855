import { describe, expect, it } from "vitest";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_ENDPOINT, resolveCallTimeoutMs, resolveEndpoint, resolveUnreachableTimeoutMs } from "./config";

function config(values: Record<string, string>) {
  return { get: (key: string) => values[key] };
}

const all = {
  config: { values: { "clusterform:cmasshEndpoint": "http://a:1", "clusterform:endpoint": "http://c:3" } },
  env: { CLUSTERFORM_CMASSH_ENDPOINT: "http://b:2", CLUSTERFORM_ENDPOINT: "http://d:4" },
};

describe("resolveEndpoint", () => {
  it.each<[string, Record<string, string>, Record<string, string>, string, string]>([
    ["the platform's stack config first", all.config.values, all.env, "http://a:1", "stack config clusterform:cmasshEndpoint"],
    [
      "then the platform's environment variable",
      { "clusterform:endpoint": "http://c:3" },
      all.env,
      "http://b:2",
      "environment variable CLUSTERFORM_CMASSH_ENDPOINT",
    ],
    [
      "then the shared stack config",
      { "clusterform:endpoint": "http://c:3" },
      { CLUSTERFORM_ENDPOINT: "http://d:4" },
      "http://c:3",
      "stack config clusterform:endpoint",
    ],
    ["then the shared environment variable", {}, { CLUSTERFORM_ENDPOINT: "https://d:4/" }, "https://d:4", "environment variable CLUSTERFORM_ENDPOINT"],
    ["then the local control plane", {}, {}, DEFAULT_ENDPOINT, "default"],
    ["skipping empty values", { "clusterform:cmasshEndpoint": " " }, { CLUSTERFORM_CMASSH_ENDPOINT: "" }, DEFAULT_ENDPOINT, "default"],
    ["ignoring other platforms' keys", { "clusterform:senlinEndpoint": "http://s:1" }, { CLUSTERFORM_SENLIN_ENDPOINT: "http://s:2" }, DEFAULT_ENDPOINT, "default"],
  ])("takes %s", (_, values, env, url, source) => {
    expect(resolveEndpoint("cmassh", config(values), env)).toEqual({ url, source });
  });

  it("reads the environment at each call, never a cached value", () => {
    const env: Record<string, string> = {};
    expect(resolveEndpoint("peloton", config({}), env).url).toBe(DEFAULT_ENDPOINT);
    env.CLUSTERFORM_PELOTON_ENDPOINT = "http://p:5";
    expect(resolveEndpoint("peloton", config({}), env).url).toBe("http://p:5");
  });

  it.each<[string, Record<string, string>, Record<string, string>, string, string]>([
    ["a non-http scheme", { "clusterform:vclusterEndpoint": "ftp://h:1" }, {}, "stack config clusterform:vclusterEndpoint", "ftp://h:1"],
    ["a host without scheme", {}, { CLUSTERFORM_VCLUSTER_ENDPOINT: "127.0.0.1:9020" }, "environment variable CLUSTERFORM_VCLUSTER_ENDPOINT", "127.0.0.1:9020"],
    ["a port out of range", { "clusterform:endpoint": "http://h:70000" }, {}, "stack config clusterform:endpoint", "http://h:70000"],
    ["a non-numeric port", {}, { CLUSTERFORM_ENDPOINT: "http://h:abc" }, "environment variable CLUSTERFORM_ENDPOINT", "http://h:abc"],
    ["a query string", {}, { CLUSTERFORM_ENDPOINT: "http://h:1?x=1" }, "environment variable CLUSTERFORM_ENDPOINT", "http://h:1?x=1"],
  ])("rejects %s naming where it came from", (_, values, env, label, value) => {
    expect(() => resolveEndpoint("vcluster", config(values), env)).toThrow(
      `resolving the vcluster endpoint: INVALID_CONFIG: ${label} is ${JSON.stringify(value)}: it must be an http:// or https:// URL with a host and an optional port, such as ${DEFAULT_ENDPOINT}`,
    );
  });
});

describe("resolveCallTimeoutMs", () => {
  it.each<[string, Record<string, string>, Record<string, string>, number]>([
    ["the stack config first", { "clusterform:callTimeout": "2s" }, { CLUSTERFORM_CALL_TIMEOUT: "5s" }, 2_000],
    ["then the environment variable", {}, { CLUSTERFORM_CALL_TIMEOUT: "1m30s" }, 90_000],
    ["an empty stack config value counts as unset", { "clusterform:callTimeout": " " }, { CLUSTERFORM_CALL_TIMEOUT: "500ms" }, 500],
    ["else 30 seconds", {}, {}, DEFAULT_CALL_TIMEOUT_MS],
  ])("reads %s", (_, values, env, expected) => {
    expect(resolveCallTimeoutMs(config(values), env)).toBe(expected);
  });

  it.each<[string, Record<string, string>, Record<string, string>, string, string]>([
    ["a number without unit", { "clusterform:callTimeout": "30" }, {}, "stack config clusterform:callTimeout", "30"],
    ["zero", {}, { CLUSTERFORM_CALL_TIMEOUT: "0s" }, "environment variable CLUSTERFORM_CALL_TIMEOUT", "0s"],
    ["a word", { "clusterform:callTimeout": "soon" }, {}, "stack config clusterform:callTimeout", "soon"],
  ])("rejects %s naming the key, the value and what is allowed", (_, values, env, label, value) => {
    expect(() => resolveCallTimeoutMs(config(values), env)).toThrow(
      `reading the per-call timeout: INVALID_CONFIG: ${label} is ${JSON.stringify(value)}: it must be a duration above zero such as "30s", "1m" or "2m30s"`,
    );
  });
});

describe("resolveUnreachableTimeoutMs", () => {
  it("reads the stack config, then the environment, and still accepts zero (never retry an unreachable platform)", () => {
    expect(resolveUnreachableTimeoutMs(config({ "clusterform:unreachableTimeout": "3s" }), { CLUSTERFORM_UNREACHABLE_TIMEOUT: "9s" })).toBe(3_000);
    expect(resolveUnreachableTimeoutMs(config({}), { CLUSTERFORM_UNREACHABLE_TIMEOUT: "0s" })).toBe(0);
  });

  it("rejects a value that is not a duration, naming the key", () => {
    expect(() => resolveUnreachableTimeoutMs(config({ "clusterform:unreachableTimeout": "-1s" }), {})).toThrow(
      'reading the unreachable-platform timeout: INVALID_CONFIG: stack config clusterform:unreachableTimeout is "-1s": it must be a duration such as "30s", "1m" or "2m30s"',
    );
  });
});
