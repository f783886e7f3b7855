import { afterAll, expect } from "vitest";
import { type AllKindsStack, compareWithState, type Kind, type KindComparison, openAllKindsStack } from "../harness/all-kinds";
import { changingSteps } from "../harness/engine";
import { acceptedCalls } from "../harness/interrupt";
import type { AuditEntry } from "../harness/local-plane";
import { matrixScenario } from "../harness/matrix";

// A whole stack of every kind brought up under random faults, as users see a flaky network: on
// every call of every API (Keystone's token requests too), a 10% chance of UNAVAILABLE before the
// call does anything, and 200 ms of added latency. The faults' random source is seeded, so a
// failure names the seed that replays its decisions (`--chaos-seed`). The engine is run again after
// a failed `up`, as a user would, until the stack converges.
const SEED = Number(process.env.CLUSTERFORM_CHAOS_SEED ?? 20261127);
const ERROR_PROBABILITY = 0.1;
const LATENCY_MS = 200;
/** The most `up` runs the stack may need; each failed run leaves less to do. */
const MAX_RUNS = 8;

interface ChaosOutcome {
  /** How many `up` runs it took, and the errors of those that failed. */
  runs: number;
  errors: string[];
  audit: AuditEntry[];
  /** How many calls the faults affected. */
  fired: { errors: number; latencies: number };
  comparison: Record<Kind, KindComparison>;
  /** Steps a preview without faults plans after convergence (none when the state is true). */
  planned: number;
}

let t: AllKindsStack | undefined;
afterAll(async () => {
  await t?.plane.stop();
});

async function underChaos(): Promise<ChaosOutcome> {
  t = await openAllKindsStack({ timeScale: 0.05, planeFlags: ["--chaos-seed", String(SEED)] });
  const since = await t.plane.lastSeq();
  await t.plane.addFault({ action: "error", code: "UNAVAILABLE", message: "chaos: transient failure", probability: ERROR_PROBABILITY });
  await t.plane.addFault({ action: "latency", delayMs: LATENCY_MS, probability: 1 });
  const errors: string[] = [];
  let runs = 0;
  for (;;) {
    runs += 1;
    const error = await t.stack.up().then(
      () => undefined,
      (err: Error) => err.message,
    );
    if (error === undefined || runs >= MAX_RUNS) {
      if (error !== undefined) errors.push(error);
      break;
    }
    errors.push(error);
  }
  const faults = (await t.plane.admin<{ faults: { action: string; fired: number }[] }>("/_local/faults")).faults;
  await t.plane.clearFaults();
  const fired = {
    errors: faults.filter((f) => f.action === "error").reduce((n, f) => n + f.fired, 0),
    latencies: faults.filter((f) => f.action === "latency").reduce((n, f) => n + f.fired, 0),
  };
  const planned = changingSteps(await t.stack.preview()).length;
  return { runs, errors, audit: await t.plane.audit(since), fired, comparison: await compareWithState(t.plane, t.stack), planned };
}

matrixScenario(
  "dynamic",
  `random faults during create (${ERROR_PROBABILITY * 100}% UNAVAILABLE and ${LATENCY_MS} ms latency on every call, seeded; up again until it converges)`,
  underChaos,
  (outcome, kind) => {
    const replay = `chaos seed ${SEED} (CLUSTERFORM_CHAOS_SEED=${SEED} replays it); ${outcome.runs} up runs; errors: ${outcome.errors.join(" | ").slice(0, 2000)}`;
    // The chaos was real: calls failed and were slowed.
    expect(outcome.fired.errors, replay).toBeGreaterThan(0);
    expect(outcome.fired.latencies, replay).toBeGreaterThan(0);
    // It converged: the last run succeeded and nothing is left to do.
    expect(outcome.errors.length, replay).toBeLessThan(outcome.runs);
    expect(outcome.planned, replay).toBe(0);
    // Nothing lost, nothing duplicated: the plane holds exactly what the state names, and the
    // creates that went through made exactly those objects.
    const c = outcome.comparison[kind];
    expect({ orphans: c.orphans, missing: c.missing, duplicates: c.duplicates }, replay).toEqual({ orphans: [], missing: [], duplicates: [] });
    expect(c.state.length, replay).toBeGreaterThan(0);
    // How many of the kind's creates succeeded says how many objects the runs created.
    const creates = acceptedCalls(outcome.audit, kind, "create");
    // A CycleCloud pool's nodes come from one CreateNodes call each: its request says how many.
    const made = (e: AuditEntry) => (kind === "cyclecloud:NodePool" ? ((e.request as { sets?: { count: number }[] } | undefined)?.sets ?? []).reduce((n, set) => n + set.count, 0) : 1);
    expect(creates.reduce((n, e) => n + made(e), 0), replay).toBe(c.state.length);
  },
);
