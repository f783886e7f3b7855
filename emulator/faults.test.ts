import { describe, expect, it } from "vitest";
import { FaultRegistry, FaultValidationError, parseFault } from "./faults";

const KNOWN = { cmassh: ["CreateCluster", "GetCluster", "ScaleNodePool"] };

describe("parseFault", () => {
  it("applies defaults: count 1, code UNAVAILABLE for errors", () => {
    expect(parseFault({ action: "error" }, KNOWN)).toEqual({ action: "error", count: 1, code: "UNAVAILABLE" });
  });

  it("accepts an action a platform declares and names every allowed action otherwise", () => {
    expect(parseFault({ action: "fail-node" }, KNOWN, ["fail-node"])).toEqual({ action: "fail-node", count: 1 });
    expect(() => parseFault({ action: "fail-node" }, KNOWN)).toThrow(
      'invalid fault: field "action": got "fail-node", allowed: error, delay, fail-operation, reset',
    );
  });

  it('defaults the message of "fail-operation" to "simulated failure"', () => {
    expect(parseFault({ action: "fail-operation", operation: "CreateCluster" }, KNOWN)).toEqual({
      action: "fail-operation",
      operation: "CreateCluster",
      count: 1,
      message: "simulated failure",
    });
  });

  it('defaults the stage of "reset" to "request" and accepts "response"', () => {
    expect(parseFault({ action: "reset" }, KNOWN)).toEqual({ action: "reset", count: 1, stage: "request" });
    expect(parseFault({ action: "reset", stage: "response" }, KNOWN).stage).toBe("response");
  });

  it.each([
    [{ action: "reset", stage: "later" }, /field "stage"/],
    [{ action: "error", stage: "response" }, /field "stage": only a "reset" has a stage, got action "error"/],
    [{}, /field "action"/],
    [{ action: "explode" }, /field "action"/],
    [{ action: "error", code: "NOPE" }, /field "code"/],
    [{ action: "error", code: "OK" }, /field "code"/],
    [{ action: "error", count: 0 }, /field "count"/],
    [{ action: "error", count: 1.5 }, /field "count"/],
    [{ action: "delay" }, /field "delayMs": required when action is "delay"/],
    [{ action: "delay", delayMs: -1 }, /field "delayMs"/],
    [{ action: "error", api: "nope" }, /field "api": got "nope", allowed: cmassh/],
    [{ action: "error", operation: "Frobnicate" }, /field "operation": got "Frobnicate", allowed: CreateCluster/],
    [{ action: "error", colour: "red" }, /colour/],
    [[], /body/],
  ])("rejects %j", (body, message) => {
    expect(() => parseFault(body, KNOWN)).toThrow(FaultValidationError);
    expect(() => parseFault(body, KNOWN)).toThrow(message);
  });
});

describe("FaultRegistry", () => {
  const call = { api: "cmassh", operation: "ScaleNodePool", target: "c1/p1" };

  it("affects exactly `count` matching calls, then forgets the fault", () => {
    const registry = new FaultRegistry();
    registry.add(parseFault({ action: "error", operation: "ScaleNodePool", count: 2 }, KNOWN));
    expect(registry.take(call, "error")?.code).toBe("UNAVAILABLE");
    expect(registry.take(call, "error")).toBeDefined();
    expect(registry.take(call, "error")).toBeUndefined();
    expect(registry.list()).toEqual([]);
  });

  it.each([
    [{ target: "c1/p1" }, true],
    [{ target: "c1" }, false],
    [{ api: "cmassh", operation: "ScaleNodePool" }, true],
    [{ operation: "GetCluster" }, false],
    [{}, true],
  ])("matches %j against every given field: %s", (fields, expected) => {
    const registry = new FaultRegistry();
    registry.add(parseFault({ action: "delay", delayMs: 5, ...fields }, KNOWN));
    expect(registry.take(call, "delay") !== undefined).toBe(expected);
  });

  it("takes only faults of the requested action", () => {
    const registry = new FaultRegistry();
    registry.add(parseFault({ action: "fail-operation" }, KNOWN));
    expect(registry.take(call, "error")).toBeUndefined();
    expect(registry.take(call, "fail-operation")?.message).toBe("simulated failure");
  });
});
