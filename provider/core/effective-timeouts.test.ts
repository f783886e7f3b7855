import { describe, expect, it } from "vitest";
import { effectiveTimeouts } from "./deadline";

const request = (timeoutSeconds: number) => timeoutSeconds;

describe("customTimeouts combined with the timeouts input", () => {
  it("keeps the inputs when the engine sends no timeout", () => {
    const props = { timeouts: { create: "30m" } };
    expect(effectiveTimeouts(props, "create", request(0))).toBe(props);
    expect(effectiveTimeouts(props, "create", undefined)).toBe(props);
  });

  it("takes the smaller of the two when both are set", () => {
    expect(effectiveTimeouts({ timeouts: { create: "30m" } }, "create", request(120)).timeouts).toEqual({ create: "2m" });
    expect(effectiveTimeouts({ timeouts: { create: "90s" } }, "create", request(600)).timeouts).toEqual({ create: "1m30s" });
  });

  it("uses customTimeouts alone over the kind's default, touching only the operation's entry", () => {
    expect(effectiveTimeouts({ timeouts: { update: "5m" } }, "delete", request(2)).timeouts).toEqual({ update: "5m", delete: "2s" });
    expect(effectiveTimeouts({}, "create", request(2)).timeouts).toEqual({ create: "2s" });
  });
});
