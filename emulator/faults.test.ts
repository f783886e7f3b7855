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
      'invalid fault: field "action": got "fail-node", allowed: error, delay, fail-operation, reset, latency',
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

describe("probabilistic faults and latency", () => {
  const callOf = (i: number) => ({ api: "cmassh", operation: "GetCluster", target: `c${i}` });
  const decisions = (registry: FaultRegistry, calls: { api: string; operation: string; target: string }[]) =>
    calls.map((c) => registry.take(c, "error") !== undefined);

  it("keeps a fault with a probability and no count armed, affecting about that share of calls", () => {
    const registry = new FaultRegistry(7);
    registry.add(parseFault({ action: "error", probability: 0.1 }, KNOWN));
    const fired = decisions(registry, Array.from({ length: 2000 }, (_, i) => callOf(i))).filter(Boolean).length;
    expect(fired).toBeGreaterThan(140);
    expect(fired).toBeLessThan(260);
    expect(registry.list()).toHaveLength(1);
    expect(registry.list()[0].fired).toBe(fired);
  });

  it("stops a probabilistic fault with a count after that many calls were affected", () => {
    const registry = new FaultRegistry(7);
    registry.add(parseFault({ action: "error", probability: 0.5, count: 3 }, KNOWN));
    expect(decisions(registry, Array.from({ length: 200 }, (_, i) => callOf(i))).filter(Boolean).length).toBe(3);
    expect(registry.list()).toEqual([]);
  });

  it("makes the same decisions for the same seed, and others for another seed", () => {
    const calls = Array.from({ length: 300 }, (_, i) => callOf(i % 30));
    const run = (seed: number) => {
      const registry = new FaultRegistry(seed);
      registry.add(parseFault({ action: "error", probability: 0.3 }, KNOWN));
      return decisions(registry, calls);
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
  });

  it("decides each object's n-th call alike whatever order the calls of different objects come in", () => {
    const calls = Array.from({ length: 200 }, (_, i) => callOf(i % 10));
    const byCall = (order: typeof calls) => {
      const registry = new FaultRegistry(5);
      registry.add(parseFault({ action: "error", probability: 0.4 }, KNOWN));
      const seen = new Map<string, boolean[]>();
      for (const c of order) seen.set(c.target, [...(seen.get(c.target) ?? []), registry.take(c, "error") !== undefined]);
      return Object.fromEntries([...seen].sort(([a], [b]) => a.localeCompare(b)));
    };
    const interleaved = [...calls].sort((a, b) => a.target.localeCompare(b.target));
    expect(byCall(interleaved)).toEqual(byCall(calls));
  });

  it("starts the decisions over when reseeded", () => {
    const registry = new FaultRegistry(9);
    registry.add(parseFault({ action: "error", probability: 0.5 }, KNOWN));
    const calls = Array.from({ length: 50 }, () => callOf(1));
    const first = decisions(registry, calls);
    registry.chaos.reseed(9);
    expect(decisions(registry, calls)).toEqual(first);
  });

  it("adds the latency of every latency fault that acts, with jitter within its bound", () => {
    const registry = new FaultRegistry(3);
    registry.add(parseFault({ action: "latency", delayMs: 200, probability: 1 }, KNOWN));
    registry.add(parseFault({ action: "latency", delayMs: 50, jitterMs: 20, api: "cmassh", probability: 1 }, KNOWN));
    const latencies = Array.from({ length: 100 }, (_, i) => registry.latencyMs(callOf(i)));
    expect(latencies.every((ms) => ms >= 250 && ms <= 270)).toBe(true);
    expect(new Set(latencies).size).toBeGreaterThan(5);
    expect(registry.latencyMs({ api: "senlin", operation: "GetCluster", target: "" })).toBe(200);
  });

  it.each([
    [{ action: "error", probability: 0 }, /field "probability"/],
    [{ action: "error", probability: 1.5 }, /field "probability"/],
    [{ action: "latency" }, /field "delayMs": required when action is "latency"/],
    [{ action: "delay", delayMs: 5, jitterMs: 5 }, /field "jitterMs": only a "latency" has a jitter/],
  ])("rejects %j", (body, message) => {
    expect(() => parseFault(body, KNOWN)).toThrow(message);
  });

  it("gives a probabilistic fault no count unless one is asked for", () => {
    expect(parseFault({ action: "error", probability: 0.1 }, KNOWN)).toEqual({ action: "error", probability: 0.1, code: "UNAVAILABLE" });
    expect(parseFault({ action: "error", probability: 0.1, count: 4 }, KNOWN).count).toBe(4);
  });
});
