/** The source of time for everything the emulator derives from operation start and end times. */
export interface Clock {
  /** Current wall-clock time in milliseconds since the Unix epoch. */
  now(): number;
}

/** The real wall clock. State survives restarts because operation end times are absolute. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Jumps to an absolute time in epoch milliseconds. */
  set(epochMs: number): void;
}

/**
 * Creates a clock that stands still until told to move.
 *
 * @param startMs - Initial time in epoch milliseconds. @default 1_700_000_000_000
 */
export function createFakeClock(startMs = 1_700_000_000_000): FakeClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (epochMs) => {
      current = epochMs;
    },
  };
}
