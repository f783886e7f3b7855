import { describe, expect, it } from "vitest";
import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { eventTimes, hasEnded, isHolding, podStateAt, type RunRecord } from "./runs";
import { scaleTiming } from "./timing";

const timing = scaleTiming(1);

const run = (fields: Partial<RunRecord>): RunRecord => ({
  id: 1,
  jobId: "j",
  instanceId: 0,
  runNumber: 1,
  configVersion: 1,
  createdMs: 0,
  admittedMs: 500,
  instant: false,
  fails: false,
  killMs: null,
  endMs: null,
  handover: false,
  failureHandled: false,
  failureCount: 0,
  removed: false,
  demand: {},
  message: "",
  ...fields,
});

describe("pod state from times", () => {
  it.each([
    [run({ admittedMs: null }), 199, PodState.INITIALIZED],
    [run({ admittedMs: null }), 10_000, PodState.PENDING],
    [run({}), 500, PodState.READY],
    [run({}), 1999, PodState.STARTING],
    [run({}), 2000, PodState.RUNNING],
    [run({ fails: true, endMs: 2000 }), 2000, PodState.FAILED],
    [run({ killMs: 3000, endMs: 3500 }), 3499, PodState.KILLING],
    [run({ killMs: 3000, endMs: 3500 }), 3500, PodState.KILLED],
    [run({ instant: true, admittedMs: 100, createdMs: 100 }), 100, PodState.RUNNING],
  ])("%# is %s at %i ms", (r, t, state) => {
    expect(podStateAt(r, timing, t)).toBe(state);
  });

  it("holds resources from admission until its end", () => {
    const r = run({ killMs: 3000, endMs: 3500 });
    expect([499, 500, 3499, 3500].map((t) => isHolding(r, t))).toEqual([false, true, true, false]);
    expect([3499, 3500].map((t) => hasEnded(r, timing, t))).toEqual([false, true]);
  });

  it.each([
    ["a pod waiting for its pool", run({ admittedMs: null }), [500]],
    ["an admitted pod", run({}), [2000]],
    ["a pod failing to start", run({ fails: true, endMs: 2000 }), [2000]],
    ["a pod killed while starting", run({ killMs: 1000, endMs: 1500 }), [1500]],
  ])("lists the events of %s", (_what, r, times) => {
    expect(eventTimes(r, timing)).toEqual(times);
  });
});
