import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Deadline } from "./deadline";
import { ClusterformError } from "./errors";
import { fakeTime } from "./testing";
import { backoffDelayMs, retryTransient } from "./retry";

const OP = 'GetCluster cluster "prod"';

function failing(codes: Code[], value = "ok") {
  const calls: number[] = [];
  const fn = async (attempt: number) => {
    calls.push(attempt);
    const code = codes[attempt];
    if (code !== undefined) throw new ConnectError("nope", code);
    return value;
  };
  return { fn, calls };
}

describe("backoffDelayMs", () => {
  it.each<[number, number, number]>([
    [0, 0, 50],
    [0, 0.999_999, 100],
    [1, 0.999_999, 200],
    [5, 0.999_999, 3_200],
    [6, 0.999_999, 5_000],
    [30, 0.999_999, 5_000],
    [30, 0, 2_500],
  ])("waits before retry %d with jitter %d for %d ms", (attempt, jitter, ms) => {
    expect(backoffDelayMs(attempt, () => jitter)).toBe(ms);
  });
});

describe("retryTransient", () => {
  it("retries transient errors with doubling backoff until success", async () => {
    const time = fakeTime();
    const { fn, calls } = failing([Code.Unavailable, Code.ResourceExhausted, Code.DeadlineExceeded]);
    const value = await retryTransient(fn, {
      deadline: new Deadline(60_000, time.now),
      operation: OP,
      sleep: time.sleep,
      random: () => 0.999_999,
    });
    expect(value).toBe("ok");
    expect(calls).toEqual([0, 1, 2, 3]);
    expect(time.sleeps).toEqual([100, 200, 400]);
  });

  it("surfaces a non-transient error at once, translated", async () => {
    const time = fakeTime();
    const { fn, calls } = failing([Code.Unavailable, Code.NotFound]);
    const promise = retryTransient(fn, { deadline: new Deadline(60_000, time.now), operation: OP, sleep: time.sleep });
    await expect(promise).rejects.toMatchObject({ code: "NotFound", message: `${OP}: NOT_FOUND: nope` });
    expect(calls).toEqual([0, 1]);
  });

  it("never sleeps past the deadline and reports the last error as the cause", async () => {
    const time = fakeTime();
    const { fn, calls } = failing(Array(100).fill(Code.Unavailable));
    const error = await retryTransient(fn, {
      deadline: new Deadline(1_000, time.now),
      operation: OP,
      sleep: time.sleep,
      random: () => 0.999_999,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterformError);
    const err = error as ClusterformError;
    expect(time.sleeps).toEqual([100, 200, 400]);
    expect(calls).toEqual([0, 1, 2, 3]);
    expect(time.nowMs).toBeLessThanOrEqual(1_000);
    expect([err.code, err.ownDeadline, (err.cause as ClusterformError).code]).toEqual(["DeadlineExceeded", true, "Unavailable"]);
    expect(err.message).toBe(
      `${OP}: TIMEOUT: not done after 700ms (timeout 1s); still failing after 4 attempt(s): UNAVAILABLE: nope`,
    );
  });

  it("does not start when the deadline has already passed", async () => {
    const time = fakeTime();
    const deadline = new Deadline(10, time.now);
    time.nowMs = 10;
    const { fn, calls } = failing([]);
    await expect(retryTransient(fn, { deadline, operation: OP, sleep: time.sleep })).rejects.toMatchObject({
      code: "DeadlineExceeded",
    });
    expect(calls).toEqual([]);
  });
});
