import { PodState } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";

/**
 * How long each pod state lasts at time scale 1, in milliseconds. A pod is INITIALIZED, then
 * PENDING until its resource pool admits it (at least `pendingMs`), then walks the launch states
 * to RUNNING; killing takes `killingMs`; a failed pod is retried after `retryBackoffMs`.
 */
export const BASE_TIMING_MS = {
  initializedMs: 200,
  pendingMs: 300,
  readyMs: 100,
  placingMs: 200,
  placedMs: 100,
  launchingMs: 100,
  launchedMs: 200,
  startingMs: 800,
  killingMs: 500,
  retryBackoffMs: 500,
} as const;

/** The timing constants multiplied by the time scale. */
export type Timing = Readonly<Record<keyof typeof BASE_TIMING_MS, number>>;

/** Scales every duration of {@link BASE_TIMING_MS}; 0 makes every transition instant. */
export function scaleTiming(timeScale: number): Timing {
  const entries = Object.entries(BASE_TIMING_MS).map(([key, ms]) => [key, Math.round(ms * timeScale)]);
  return Object.fromEntries(entries) as Timing;
}

/** The launch states a pod walks after admission, in order, with the timing key of each. */
const LAUNCH_STATES: ReadonlyArray<[PodState, keyof Timing]> = [
  [PodState.READY, "readyMs"],
  [PodState.PLACING, "placingMs"],
  [PodState.PLACED, "placedMs"],
  [PodState.LAUNCHING, "launchingMs"],
  [PodState.LAUNCHED, "launchedMs"],
  [PodState.STARTING, "startingMs"],
];

/** Time from admission to RUNNING (or to FAILED for a pod that fails to start). */
export function launchMs(timing: Timing): number {
  return LAUNCH_STATES.reduce((sum, [, key]) => sum + timing[key], 0);
}

/** Earliest admission time of a pod created at `createdMs`. */
export function admissionEarliestMs(timing: Timing, createdMs: number): number {
  return createdMs + timing.initializedMs + timing.pendingMs;
}

/** The launch state `elapsedMs` after admission, or undefined once the launch is over. */
export function launchStateAt(timing: Timing, elapsedMs: number): PodState | undefined {
  let end = 0;
  for (const [state, key] of LAUNCH_STATES) {
    end += timing[key];
    if (elapsedMs < end) return state;
  }
  return undefined;
}
