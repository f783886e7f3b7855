import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { VCLUSTER_TIMEOUTS } from "./schema";
import { drainTimeoutProblem, type SuspendOptions, suspendRequestOf } from "./suspend-options";

describe("suspendRequestOf", () => {
  it.each<[string, SuspendOptions | undefined, object]>([
    ["nothing without options", undefined, {}],
    ["the flags as written when they ask for nothing (the API's zero values)", { drainWorkloads: false, createSnapshot: false }, { drainWorkloads: false, createSnapshot: false }],
    ["the drain with its timeout in seconds", { drainWorkloads: true, drainTimeout: "1h30m" }, { drainWorkloads: true, drainTimeoutSeconds: 5400 }],
    ["a drain without a timeout", { drainWorkloads: true }, { drainWorkloads: true }],
    ["the snapshot and its name", { createSnapshot: true, snapshotName: "s1" }, { createSnapshot: true, snapshotName: "s1" }],
  ])("sends %s", (_, options, request) => {
    expect(suspendRequestOf(options)).toEqual(request);
  });
});

describe("drainTimeoutProblem", () => {
  it.each<[string, SuspendOptions | undefined, Record<string, string> | undefined, string | undefined]>([
    ["no drain timeout", { drainWorkloads: true }, undefined, undefined],
    ["a timeout under both defaults", { drainWorkloads: true, drainTimeout: "19m59s" }, undefined, undefined],
    ["a timeout equal to the update's default", { drainTimeout: "20m" }, undefined, 'must be shorter than timeouts.update ("20m"), the time the provider waits for a suspend, got "20m"'],
    ["a timeout over a lowered update timeout", { drainTimeout: "2m" }, { update: "90s" }, 'must be shorter than timeouts.update ("90s"), the time the provider waits for a suspend, got "2m"'],
    ["a timeout over a lowered create timeout", { drainTimeout: "2m" }, { create: "1m" }, 'must be shorter than timeouts.create ("1m"), the time the provider waits for a suspend, got "2m"'],
    ["an unknown timeout", { drainTimeout: UNKNOWN }, undefined, undefined],
    ["unknown operation timeouts", { drainTimeout: "30m" }, { update: UNKNOWN }, undefined],
  ])("finds %s", (_, options, timeouts, problem) => {
    expect(drainTimeoutProblem(options, timeouts, VCLUSTER_TIMEOUTS)).toBe(problem);
  });
});
