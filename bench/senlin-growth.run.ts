import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { driveLoad } from "./support/load";
import { keystoneToken, type LoadCase, senlinCases, senlinClusters } from "./support/plane-calls";
import { cpuTimeMs, planePid } from "./support/plane-stats";
import { benchWorkspace } from "./support/programs";
import { publish, type Row, round } from "./support/report";

/**
 * A smaller run for checking that the benchmark works, not for figures:
 * CLUSTERFORM_BENCH_SENLIN_MARKS="0,200" and CLUSTERFORM_BENCH_SENLIN_MS="200,500" (warm-up, measured).
 */
const marksOverride = process.env.CLUSTERFORM_BENCH_SENLIN_MARKS?.split(",").map(Number);
const [warmupOverride, durationOverride] = (process.env.CLUSTERFORM_BENCH_SENLIN_MS ?? "").split(",").map((v) => (v === "" ? undefined : Number(v)));

/** As plane-load.run.ts: requests in flight, warm-up and measured window, the target. */
const CONCURRENCY = 8;
const WARMUP_MS = warmupOverride ?? 1000;
const DURATION_MS = durationOverride ?? 5000;
const RPS_TARGET = 500;
/** The Senlin calls are measured with this many actions recorded (the mark is 10,000). */
const ACTION_MARKS = marksOverride ?? [0, 10_000, 20_000];

/** Actions in the plane's database, read beside the running plane (WAL lets a reader in). */
function actionCount(dataDir: string): number {
  const db = new DatabaseSync(path.join(dataDir, "state.db"), { readOnly: true });
  try {
    return Number((db.prepare("SELECT COUNT(*) AS n FROM senlin_actions").get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe(`the local Senlin as its actions pile up: GET and PATCH of a cluster, ${CONCURRENCY} in flight, at ${ACTION_MARKS.join(", ")} actions`, () => {
  let plane: LocalPlane;
  let cases: LoadCase[];
  let pid: number;

  beforeAll(async () => {
    plane = await startLocalPlane({ workspace: benchWorkspace(), timeScale: 0 });
    pid = planePid(plane.dataDir);
    const headers = { "content-type": "application/json", "x-auth-token": await keystoneToken(plane.url) };
    cases = senlinCases(plane.url, headers, await senlinClusters(plane.url, headers, CONCURRENCY));
  });

  afterAll(async () => {
    await plane?.stop();
  });

  it("reports req/s, p99 and server CPU per request of each Senlin call at each mark", async () => {
    const rows: Row[] = [];
    const [, patch] = cases;
    for (const mark of ACTION_MARKS) {
      // Each PATCH records one CLUSTER_UPDATE action: fill up to the mark with them.
      const missing = mark - actionCount(plane.dataDir);
      if (missing > 0) {
        const fill = await driveLoad(patch.send, { concurrency: CONCURRENCY, durationMs: Number.POSITIVE_INFINITY, maxRequests: missing });
        if (fill.errors > 0) throw new Error(`filling to ${mark} actions: ${fill.errors} failed, first: ${fill.firstError}`);
      }
      const recorded = actionCount(plane.dataDir);
      for (const c of cases) {
        const warm = await driveLoad(c.send, { concurrency: CONCURRENCY, durationMs: WARMUP_MS });
        const cpuBefore = cpuTimeMs(pid);
        const result = await driveLoad(c.send, { concurrency: CONCURRENCY, durationMs: DURATION_MS });
        const serverCpuMs = (cpuTimeMs(pid) - cpuBefore) / result.completed;
        for (const run of [warm, result]) {
          if (run.errors > 0) throw new Error(`${c.operation} at ${mark}: ${run.errors} failed, first: ${run.firstError}`);
        }
        rows.push({
          "actions recorded": recorded,
          call: `${c.kind} ${c.operation}`,
          "req/s": round(result.requestsPerSecond, 0),
          "p50 ms": round(result.p50Ms, 2),
          "p99 ms": round(result.p99Ms, 2),
          "req/s / 500": round(result.requestsPerSecond / RPS_TARGET, 2),
          "server CPU ms/req": round(serverCpuMs, 3),
          "req/s per core": round(1000 / serverCpuMs, 0),
        });
      }
    }
    publish("senlin-growth", `Senlin calls as actions pile up: ${CONCURRENCY} in flight, ${WARMUP_MS} ms warm-up + ${DURATION_MS} ms measured, time scale 0`, rows, {
      concurrency: CONCURRENCY,
      marks: ACTION_MARKS,
      target: RPS_TARGET,
    });
  });
});
