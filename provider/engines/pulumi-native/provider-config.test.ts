import { describe, expect, it } from "vitest";
import { configFromRequest } from "./provider-config";
import { SECRET_SIG, SIG_KEY } from "./secrets";

const request = (variables: Record<string, string>, args?: Record<string, unknown>) => ({
  getVariablesMap: () => new Map(Object.entries(variables)),
  getArgs: () => (args ? { toJavaScript: () => args } : undefined),
});

describe("provider configuration from the Configure request", () => {
  it("reads legacy variables as clusterform:<key>", () => {
    const config = configFromRequest(request({ "clusterform:config:endpoint": "http://a:1", "other:config:x": "y" }));
    expect(config.get("clusterform:endpoint")).toBe("http://a:1");
    expect(config.get("other:x")).toBeUndefined();
  });

  it("prefers typed args, unwrapping secrets and writing numbers as text", () => {
    const config = configFromRequest(
      request({ "clusterform:config:endpoint": "http://old:1" }, { endpoint: "http://new:2", senlinPassword: { [SIG_KEY]: SECRET_SIG, value: "pw" }, retries: 3 }),
    );
    expect(config.get("clusterform:endpoint")).toBe("http://new:2");
    expect(config.get("clusterform:senlinPassword")).toBe("pw");
    expect(config.get("clusterform:retries")).toBe("3");
  });
});
