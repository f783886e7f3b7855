import { Code, ConnectError } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Deadline } from "./deadline";
import { ClusterformError } from "./errors";
import { type FakeTime, fakeTime } from "./testing";
import { pollIntervalMs, waitFor } from "./wait";

/** A platform operation that finishes `durationMs` after the wait starts, on the fake clock. */
function operation(time: FakeTime, durationMs: number) {
  const start = time.nowMs;
  return async () => (time.nowMs - start >= durationMs ? "RUNNING" : "PROVISIONING");
}

describe("pollIntervalMs", () => {
  it.each<[number, number]>([
    [0, 200],
    [1_999, 200],
    [5_000, 500],
    [60_000, 6_000],
    [100_000, 10_000],
    [3_600_000, 10_000],
  ])("after %d ms waits %d ms", (elapsed, interval) => {
    expect(pollIntervalMs(elapsed)).toBe(interval);
  });
});

describe("waitFor", () => {
  it("returns the done value with the poll count and elapsed time", async () => {
    const time = fakeTime();
    const result = await waitFor({
      poll: operation(time, 1_000),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
    });
    expect(result).toEqual({ value: "RUNNING", polls: 6, elapsedMs: 1_000 });
    expect(time.sleeps).toEqual([200, 200, 200, 200, 200]);
  });

  it("reports the first poll and that the wait is over, not every unchanged poll between", async () => {
    const time = fakeTime();
    const told: string[] = [];
    await waitFor({
      poll: operation(time, 600),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(30 * 60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      describe: (s) => `status ${s}`,
      sleep: time.sleep,
      progress: (message) => told.push(message),
    });
    expect(time.sleeps).toEqual([200, 200, 200]);
    expect(told).toEqual(['waiting for cluster "prod" to be RUNNING: status PROVISIONING (0ms, timeout 30m)', 'waited 600ms for cluster "prod" to be RUNNING']);
  });

  it("tells an unchanged state again after 5 s, 10 s, 20 s, 40 s, then every 60 s, over a five-minute wait of 73 polls", async () => {
    const time = fakeTime();
    const told: string[] = [];
    const { polls } = await waitFor({
      poll: operation(time, 300_000),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(30 * 60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      describe: (s) => `status ${s}`,
      sleep: time.sleep,
      progress: (message) => told.push(message),
    });
    expect(polls).toBe(73);
    // Polls at 0, 5.188 s, 16.286 s, 38.404 s, 82.323 s, 149.572 s, 209.572 s and 269.572 s are
    // the first at or after each due time (the pause between polls grows to 10 s).
    const waiting = (at: string) => `waiting for cluster "prod" to be RUNNING: status PROVISIONING (${at}, timeout 30m)`;
    expect(told).toEqual([
      waiting("0ms"),
      waiting("5s"),
      waiting("16s"),
      waiting("38s"),
      waiting("1m22s"),
      waiting("2m30s"),
      waiting("3m30s"),
      waiting("4m30s"),
      'waited 5m10s for cluster "prod" to be RUNNING',
    ]);
  });

  it("tells a changed state at once and starts the slowing pace again from 5 s", async () => {
    const time = fakeTime();
    const told: string[] = [];
    await waitFor({
      poll: async () => (time.nowMs < 30_000 ? "PROVISIONING" : time.nowMs < 200_000 ? "CONFIGURING" : "RUNNING"),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(30 * 60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      describe: (s) => `status ${s}`,
      sleep: time.sleep,
      progress: (message) => told.push(message),
    });
    const waiting = (status: string, at: string) => `waiting for cluster "prod" to be RUNNING: status ${status} (${at}, timeout 30m)`;
    expect(told).toEqual([
      waiting("PROVISIONING", "0ms"),
      waiting("PROVISIONING", "5s"),
      waiting("PROVISIONING", "16s"),
      // The first poll after 30 s (31.739 s) sees CONFIGURING: told, and 5 s is the next pause.
      waiting("CONFIGURING", "32s"),
      waiting("CONFIGURING", "38s"),
      waiting("CONFIGURING", "51s"),
      waiting("CONFIGURING", "1m15s"),
      waiting("CONFIGURING", "2m"),
      waiting("CONFIGURING", "3m"),
      'waited 3m30s for cluster "prod" to be RUNNING',
    ]);
  });

  it("names whose operation waits in every message and error", async () => {
    const time = fakeTime();
    const told: string[] = [];
    const error = await waitFor({
      poll: async () => "RECONCILING",
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(300, time.now),
      what: 'cluster "prod-abc" to be RUNNING',
      by: 'pool "general": ScaleNodePool to 5',
      describe: (s) => `status ${s}`,
      sleep: time.sleep,
      progress: (message) => told.push(message),
    }).then(
      () => new Error("the wait ended without a timeout"),
      (e: unknown) => e as Error,
    );
    expect(told).toEqual(['pool "general": ScaleNodePool to 5: waiting for cluster "prod-abc" to be RUNNING: status RECONCILING (0ms, timeout 300ms)']);
    expect(error.message).toBe(
      'pool "general": ScaleNodePool to 5: waiting for cluster "prod-abc" to be RUNNING: TIMEOUT: not done after 300ms (timeout 300ms); last observed: status RECONCILING',
    );
  });

  it("returns only once the message that the wait is over has been delivered", async () => {
    const time = fakeTime();
    let release = () => {};
    let lastSent = () => {};
    const sentLast = new Promise<void>((resolve) => {
      lastSent = resolve;
    });
    let returned = false;
    const waiting = waitFor({
      poll: operation(time, 200),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
      progress: (message) => {
        if (!message.startsWith("waited ")) return undefined;
        lastSent();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    }).then(() => {
      returned = true;
    });
    await sentLast;
    await new Promise((resolve) => setImmediate(resolve));
    expect(returned).toBe(false);
    release();
    await waiting;
    expect(returned).toBe(true);
  });

  it("gives up when polls never reach the platform for unreachableMs, though the deadline is far", async () => {
    const time = fakeTime();
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9020"), { code: "ECONNREFUSED" });
    const error = await waitFor({
      poll: async () => {
        throw refused;
      },
      isDone: () => true,
      deadline: new Deadline(30 * 60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
      unreachableMs: 5_000,
    }).then(
      () => undefined,
      (e: unknown) => e as ClusterformError,
    );
    expect([error?.code, error?.platformCode]).toEqual(["Unavailable", "UNREACHABLE"]);
    expect(time.nowMs).toBeGreaterThanOrEqual(5_000);
    expect(time.nowMs).toBeLessThan(7_000);
  });

  it("notices completion within max(250 ms, 10% of the duration), for any duration", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3_600_000 }), async (durationMs) => {
        const time = fakeTime();
        const { elapsedMs } = await waitFor({
          poll: operation(time, durationMs),
          isDone: (s) => s === "RUNNING",
          deadline: new Deadline(4_000_000, time.now),
          what: "x",
          sleep: time.sleep,
        });
        expect(elapsedMs - durationMs).toBeLessThanOrEqual(Math.max(250, 0.1 * durationMs));
      }),
    );
  });

  it("polls a 100-second operation 53 times: ten at 200 ms, then each pause 10% longer", async () => {
    const time = fakeTime();
    const { polls } = await waitFor({
      poll: operation(time, 100_000),
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(200_000, time.now),
      what: "x",
      sleep: time.sleep,
    });
    expect(polls).toBe(53);
  });

  it("ends early on a terminal failure", async () => {
    const time = fakeTime();
    const states = ["PROVISIONING", "ERROR"];
    const promise = waitFor({
      poll: async () => states.shift()!,
      isDone: (s) => s === "RUNNING",
      failure: (s) => (s === "ERROR" ? "cluster entered ERROR" : undefined),
      deadline: new Deadline(60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
    });
    await expect(promise).rejects.toMatchObject({
      code: "FailedPrecondition",
      message: 'waiting for cluster "prod" to be RUNNING: TERMINAL_STATE: cluster entered ERROR',
    });
    expect(time.nowMs).toBe(200);
  });

  it("retries transient poll errors and surfaces others", async () => {
    const time = fakeTime();
    const outcomes: (string | Code)[] = [Code.Unavailable, "PROVISIONING", Code.Unavailable, "RUNNING"];
    const poll = async () => {
      const next = outcomes.shift()!;
      if (typeof next !== "string") throw new ConnectError("down", next);
      return next;
    };
    const result = await waitFor({ poll, isDone: (s) => s === "RUNNING", deadline: new Deadline(60_000, time.now), what: "x", sleep: time.sleep });
    expect([result.value, result.polls]).toEqual(["RUNNING", 4]);

    const fatal = waitFor({
      poll: async () => {
        throw new ConnectError("gone", Code.NotFound);
      },
      isDone: () => true,
      deadline: new Deadline(60_000, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
    });
    await expect(fatal).rejects.toMatchObject({ code: "NotFound", message: 'waiting for cluster "prod" to be RUNNING: NOT_FOUND: gone' });
  });

  it("times out naming what it waited for, the last state and the timeout, after a last poll at the deadline", async () => {
    const time = fakeTime();
    let polls = 0;
    const error = await waitFor({
      poll: async () => {
        polls++;
        return { status: "PROVISIONING" };
      },
      isDone: (s) => s.status === "RUNNING",
      deadline: new Deadline(1_100, time.now),
      what: 'cluster "prod" to be RUNNING',
      sleep: time.sleep,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterformError);
    expect((error as ClusterformError).code).toBe("DeadlineExceeded");
    expect((error as Error).message).toBe(
      'waiting for cluster "prod" to be RUNNING: TIMEOUT: not done after 1s (timeout 1s); last observed: {"status":"PROVISIONING"}',
    );
    expect(time.sleeps).toEqual([200, 200, 200, 200, 200, 100]);
    expect(polls).toBe(7);
  });
});
