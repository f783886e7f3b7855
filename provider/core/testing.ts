/** A fake clock for tests of code that takes `sleep` and `now`. */
export interface FakeTime {
  /** The current fake time in milliseconds. Tests may set it. */
  nowMs: number;
  /** Every pause requested, in order. */
  sleeps: number[];
  /** The clock: returns `nowMs`. */
  now: () => number;
  /** Advances `nowMs` by `ms` at once and records the pause. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * A fake clock whose sleep advances time instantly, so retry and wait tests run without real
 * sleeps and with exact timings.
 * @param startMs - the initial time. @default 0
 */
export function fakeTime(startMs = 0): FakeTime {
  const time: FakeTime = {
    nowMs: startMs,
    sleeps: [],
    now: () => time.nowMs,
    sleep: async (ms) => {
      time.sleeps.push(ms);
      time.nowMs += ms;
    },
  };
  return time;
}
