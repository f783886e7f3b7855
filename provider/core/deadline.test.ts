import { describe, expect, it } from "vitest";
import { ClusterformError } from "./errors";
import { Deadline, formatDuration, parseDuration } from "./deadline";

describe("parseDuration", () => {
  it.each<[string, number]>([
    ["90s", 90_000],
    ["20m", 1_200_000],
    ["1h30m", 5_400_000],
    ["500ms", 500],
    ["1m500ms", 60_500],
    ["1.5h", 5_400_000],
    [" 10s ", 10_000],
    ["0s", 0],
  ])("reads %j as %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "20", "20 minutes", "1d", "-5s", "h1", "1h30", "5S", "1.s"])("rejects %j", (text) => {
    expect(() => parseDuration(text)).toThrow(
      `invalid duration ${JSON.stringify(text)}: expected numbers with units ms, s, m or h, such as "90s", "20m", "1h30m" or "500ms"`,
    );
  });
});

describe("formatDuration", () => {
  it.each<[number, string]>([
    [250, "250ms"],
    [90_000, "1m30s"],
    [5_400_000, "1h30m"],
    [1_200_000, "20m"],
  ])("formats %d ms as %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe("Deadline", () => {
  function fakeClock(start = 1_000) {
    const clock = { t: start, now: () => clock.t };
    return clock;
  }

  it("counts remaining time on its clock and expires at the timeout", () => {
    const clock = fakeClock();
    const deadline = new Deadline(10_000, clock.now);
    clock.t += 4_000;
    expect([deadline.remainingMs(), deadline.elapsedMs(), deadline.expired()]).toEqual([6_000, 4_000, false]);
    clock.t += 6_000;
    expect([deadline.remainingMs(), deadline.expired()]).toEqual([0, true]);
    clock.t += 1_000;
    expect(deadline.remainingMs()).toBe(0);
  });

  it("throws DeadlineExceeded naming what was awaited and for how long", () => {
    const clock = fakeClock();
    const deadline = Deadline.fromDuration("20m", clock.now);
    expect(() => deadline.throwIfExpired("waiting for x")).not.toThrow();
    clock.t += 1_200_000;
    let caught: unknown;
    try {
      deadline.throwIfExpired('waiting for cluster "prod" to be RUNNING', "last status PROVISIONING");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ClusterformError);
    const err = caught as ClusterformError;
    expect([err.code, err.ownDeadline]).toEqual(["DeadlineExceeded", true]);
    expect(err.message).toBe(
      'waiting for cluster "prod" to be RUNNING: TIMEOUT: not done after 20m (timeout 20m); last status PROVISIONING',
    );
  });

  it("rejects a negative timeout", () => {
    expect(() => new Deadline(-1)).toThrow("deadline timeout must be a non-negative number of milliseconds, got -1");
  });
});
