import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Deadline } from "./deadline";
import { isTransient } from "./call-policy";
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

  it("names the last failure when a pause that fitted ends past the deadline", async () => {
    // A real sleep can end late on a busy machine: this one takes 900 ms where 100 were asked.
    const time = fakeTime();
    const { fn, calls } = failing([Code.Unavailable, Code.Unavailable]);
    const error = await retryTransient(fn, {
      deadline: new Deadline(500, time.now),
      operation: OP,
      sleep: async (ms) => time.sleep(ms + 800),
      random: () => 0.999_999,
    }).catch((e: unknown) => e);
    const err = error as ClusterformError;
    expect(calls).toEqual([0]);
    expect([err.code, (err.cause as ClusterformError).code]).toEqual(["DeadlineExceeded", "Unavailable"]);
    expect(err.message).toBe(`${OP}: TIMEOUT: not done after 900ms (timeout 500ms); still failing after 1 attempt(s): UNAVAILABLE: nope`);
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

describe("retryTransient against a platform that is never reached", () => {
  const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9020"), { code: "ECONNREFUSED" });
  const busy = () => new ConnectError("busy", Code.Unavailable);

  it("gives up after unreachableMs of refused connections, long before the deadline", async () => {
    const time = fakeTime();
    const calls: number[] = [];
    const error = await retryTransient(
      async (n) => {
        calls.push(n);
        throw refused();
      },
      { deadline: new Deadline(20 * 60_000, time.now), operation: OP, sleep: time.sleep, random: () => 0.999_999, unreachableMs: 10_000 },
    ).catch((e: unknown) => e as ClusterformError);
    expect([error.code, error.platformCode, error.unreachable]).toEqual(["Unavailable", "UNREACHABLE", true]);
    expect(error.message).toBe(
      `${OP}: UNREACHABLE: connect ECONNREFUSED 127.0.0.1:9020 (ECONNREFUSED); still unreachable after 11s, giving up ` +
        "(limit 10s, set by clusterform:unreachableTimeout)",
    );
    // Backoff 100, 200, ... 3200, 5000 ms: the eighth attempt, at 11.3 s, is past the limit.
    expect(time.nowMs).toBe(11_300);
    expect(calls.length).toBe(8);
    expect(isTransient(error)).toBe(false);
  });

  it("keeps retrying a platform that answers, even with errors, until the deadline", async () => {
    const time = fakeTime();
    const error = await retryTransient(
      async () => {
        throw busy();
      },
      { deadline: new Deadline(60_000, time.now), operation: OP, sleep: time.sleep, random: () => 0.999_999, unreachableMs: 10_000 },
    ).catch((e: unknown) => e as ClusterformError);
    expect([error.code, error.platformCode]).toEqual(["DeadlineExceeded", "TIMEOUT"]);
    expect(time.nowMs).toBeGreaterThan(50_000);
  });

  it("starts the unreachable count again whenever the platform answers", async () => {
    const time = fakeTime();
    // Refused until 6.3 s, answered once, refused again from 11.3 s to 16.3 s, then answered at 21.3 s:
    // 11.3 s of failures in all, but never 10 s in a row.
    const pattern = (n: number) => (n === 6 ? busy() : n < 9 ? refused() : undefined);
    const value = await retryTransient(
      async (n) => {
        const failure = pattern(n);
        if (failure) throw failure;
        return "ok";
      },
      { deadline: new Deadline(60_000, time.now), operation: OP, sleep: time.sleep, random: () => 0.999_999, unreachableMs: 10_000 },
    );
    expect(value).toBe("ok");
  });
});
