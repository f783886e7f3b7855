import { cpus } from "node:os";
import type { ConfigMap, EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, it } from "vitest";
import { BASE_DURATION_MS } from "../emulator/cmassh/lifecycle";
import { openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, type Row, round } from "./support/report";

/** Independent objects each `up` creates. `CLUSTERFORM_BENCH_CREATES` overrides it. */
const N = Number(process.env.CLUSTERFORM_BENCH_CREATES ?? 32);
/** Real durations: a cma-ssh CreateCluster takes BASE_DURATION_MS.create (3 s) on the plane. */
const TIME_SCALE = 1;
/** T: how long the platform operation of each create takes. */
const T_MS = BASE_DURATION_MS.create * TIME_SCALE;
/** The CLI's default `--parallel` (4 x CPUs), and a raised one that lets every create run at once. */
const DEFAULT_PARALLEL = 4 * cpus().length;
const PARALLELS: { label: string; parallel?: number }[] = [
  { label: `default (${DEFAULT_PARALLEL})` },
  { label: String(N), parallel: N },
];
/** Fresh stacks measured per program and `--parallel`, interleaved. `CLUSTERFORM_BENCH_SAMPLES` overrides it. */
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 3);
/** Target of the subject's create span over the baseline's. */
const RATIO_TARGET = 1.2;

type Side = "subject" | "baseline";

/** One `up` that created N objects. */
interface Sample {
  /** First create step started -> last create step done, as the events reached this process. */
  spanMs: number;
  /** Automation API call -> the engine's summary event (the CLI start and the program run included). */
  wallMs: number;
  /** Subject only: GetCluster polls per cluster, median. */
  pollsPerCreate?: number;
  /** Subject only: first CreateCluster -> last CreateCluster at the plane: how late the creates reached it. */
  createSpreadMs?: number;
  /** Subject only: median over clusters of the first GetCluster at or after the cluster's finish, minus the finish. */
  detectLagMs?: number;
}

/**
 * Runs one `up` of a fresh stack and times its create steps from the events as they stream in
 * (the event's own timestamp has whole seconds only).
 */
async function measuredUp(stack: Awaited<ReturnType<typeof openStack>>, typeSuffix: string, parallel: number | undefined): Promise<Sample> {
  const started: number[] = [];
  const done: number[] = [];
  let failed = 0;
  let summaryMs = 0;
  const onEvent = (event: EngineEvent) => {
    const now = Date.now();
    const pre = event.resourcePreEvent?.metadata;
    if (pre?.op === "create" && pre.type.endsWith(typeSuffix)) started.push(now);
    const out = event.resOutputsEvent?.metadata;
    if (out?.op === "create" && out.type.endsWith(typeSuffix)) done.push(now);
    if (event.resOpFailedEvent) failed++;
    if (event.summaryEvent) summaryMs = now;
  };
  const startMs = Date.now();
  await stack.stack.up({ onEvent, color: "never", ...(parallel === undefined ? {} : { parallel }) });
  if (started.length !== N || done.length !== N || failed > 0) {
    throw new Error(`the up started ${started.length} and finished ${done.length} creates of ${typeSuffix} (${failed} failed), not ${N}`);
  }
  return { spanMs: Math.max(...done) - Math.min(...started), wallMs: summaryMs - startMs };
}

describe(`create of ${N} independent objects whose platform operation takes ${T_MS} ms, against dynamic resources that only wait as long`, () => {
  const startedMs = Date.now();
  let plane: LocalPlane;
  let workspace: string;
  const dirs: Record<Side, string> = { subject: "", baseline: "" };
  const results: { parallel: string; samples: Record<Side, Sample[]> }[] = [];

  beforeAll(async () => {
    workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE });
    dirs.subject = copyBenchProgram(workspace, "cmassh-clusters");
    dirs.baseline = copyBenchProgram(workspace, "waiting");
  });
  afterAll(async () => {
    await plane?.stop();
    console.log(`bench/create-parallel.run.ts took ${round((Date.now() - startedMs) / 1000, 0)} s`);
  });

  let stacks = 0;
  const sample = async (side: Side, parallel: number | undefined): Promise<Sample> => {
    stacks++;
    const config: ConfigMap =
      side === "subject"
        ? { "clusterform:endpoint": { value: plane.url }, "bench:count": { value: String(N) } }
        : { "bench:count": { value: String(N) }, "bench:waitMs": { value: String(T_MS) } };
    // A fresh stack each time: every sample creates N new objects (names derive from the stack).
    const stack = await openStack({ programDir: dirs[side], stackName: `${side}-${stacks}`, config });
    const since = await plane.lastSeq();
    const measured = await measuredUp(stack, side === "subject" ? ":Cluster" : ":Waiting", parallel);
    if (side === "baseline") return measured;
    const entries = await plane.audit(since);
    const creates = entries.filter((e) => e.operation === "CreateCluster" && e.code === "OK");
    if (creates.length !== N) throw new Error(`the up made ${creates.length} successful CreateCluster calls, not ${N}`);
    const reads = (target: string) => entries.filter((e) => e.operation === "GetCluster" && e.target === target);
    const callMs = creates.map((c) => Date.parse(c.time));
    // The provider reads a cluster until it is RUNNING: its first read at or after the finish is when it noticed.
    const detectLags = creates.map((c) => {
      const finishMs = Date.parse(c.time) + T_MS;
      const noticing = reads(c.target).find((e) => Date.parse(e.time) >= finishMs);
      if (!noticing) throw new Error(`cluster ${c.target} was not read after its create finished: the create did not wait for it`);
      return Date.parse(noticing.time) - finishMs;
    });
    return {
      ...measured,
      pollsPerCreate: median(creates.map((c) => reads(c.target).length)),
      createSpreadMs: Math.max(...callMs) - Math.min(...callMs),
      detectLagMs: median(detectLags),
    };
  };

  for (const { label, parallel } of PARALLELS) {
    it(`--parallel ${label}: ${SAMPLES} ups of each, interleaved`, async () => {
      const samples: Record<Side, Sample[]> = { subject: [], baseline: [] };
      for (let i = 0; i < SAMPLES; i++) {
        for (const side of ["baseline", "subject"] as const) samples[side].push(await sample(side, parallel));
      }
      results.push({ parallel: label, samples });
    });
  }

  it("publishes the ratios", () => {
    if (results.length === 0) throw new Error("nothing was measured");
    const med = (s: Sample[], key: "spanMs" | "wallMs") => median(s.map((x) => x[key]));
    const waves = (label: string) => Math.ceil(N / (PARALLELS.find((p) => p.label === label)?.parallel ?? DEFAULT_PARALLEL));
    const rows: Row[] = results.map(({ parallel, samples }) => {
      const ratio = med(samples.subject, "spanMs") / med(samples.baseline, "spanMs");
      return {
        "--parallel": parallel,
        "ideal ms": waves(parallel) * T_MS,
        "baseline span ms": round(med(samples.baseline, "spanMs"), 0),
        "subject span ms": round(med(samples.subject, "spanMs"), 0),
        "span ratio": round(ratio, 3),
        verdict: ratio <= RATIO_TARGET ? "meets" : "MISSES",
        "subject spans": samples.subject.map((s) => round(s.spanMs, 0)).join(" "),
        "baseline spans": samples.baseline.map((s) => round(s.spanMs, 0)).join(" "),
        "wall ratio": round(med(samples.subject, "wallMs") / med(samples.baseline, "wallMs"), 3),
        "polls/create": median(samples.subject.map((s) => s.pollsPerCreate ?? 0)),
        "CreateCluster spread ms": samples.subject.map((s) => round(s.createSpreadMs ?? 0, 0)).join(" "),
        "detect lag ms": samples.subject.map((s) => round(s.detectLagMs ?? 0, 0)).join(" "),
      };
    });
    publish(
      "create-parallel",
      `Create of ${N} cma-ssh clusters (CreateCluster takes ${T_MS} ms) against ${N} dynamic resources that wait ${T_MS} ms; span = first create started -> last create done; target span ratio <= ${RATIO_TARGET}`,
      rows,
      {
        n: N,
        tMs: T_MS,
        timeScale: TIME_SCALE,
        ratioTarget: RATIO_TARGET,
        results: results.map((r) => ({ ...r, spanRatio: med(r.samples.subject, "spanMs") / med(r.samples.baseline, "spanMs"), waves: waves(r.parallel) })),
      },
    );
  });
});
