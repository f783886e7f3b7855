import { afterAll, beforeAll, describe, it } from "vitest";
import { STEP_DURATION_MS, TRANSITIONS } from "../emulator/cyclecloud/lifecycle";
import { operationDurationMs } from "../emulator/vcluster/lifecycle";
import { pollIntervalMs } from "../provider/core/wait";
import { type EngineStack, openStack } from "../test/harness/engine";
import { type AuditEntry, type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { SENLIN_CONFIG, SENLIN_PLANE_FLAGS, SENLIN_USER, senlinRest } from "../test/harness/senlin-stack";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, type Row, round } from "./support/report";
import { atMs, pollFigures, stepDoneMs, theCall, type UpWindow, upWindow } from "./support/steps";

/** Samples per operation: the median of these is judged. */
const RUNS = 3;
/** Realistic durations, as in convergence-lag: a Peloton instance takes 2.5 s to replace, a vcluster scales in 2 s. */
const TIME_SCALE = 1;
/** The rolling update measured: 10 instances, 2 at a time. */
const INSTANCES = 10;
const BATCH_SIZE = 2;
/** Target of the rollout's wall time over ceil(instances / batch) x the per-instance update time. */
const ROLLOUT_RATIO_TARGET = 1.15;
/** The CycleCloud bench password: the plane's default account. */
const CYCLECLOUD = { username: "admin", password: "admin" } as const;

/** One measured operation. */
interface Sample {
  /** How long the platform took: from the mutating call to its finish. */
  durationMs: number;
  /** Engine-reported completion minus the platform's finish (engine overhead included). */
  lagMs: number;
  /** The first read at or after the finish minus the finish. */
  detectLagMs: number;
  /** Reads of the awaited object after the mutating call, up to the engine's completion. */
  polls: number;
}

/** A row of the lag table: one operation of one platform. */
interface LagRow {
  platform: string;
  operation: string;
  /** How the finish was found. */
  finish: string;
  samples: Sample[];
}

/** The lag target: max(250 ms, 10% of the operation's duration). */
function targetMs(durationMs: number): number {
  return Math.max(250, 0.1 * durationMs);
}

/** A Peloton pod as `/_local/peloton/timeline` shows it. */
interface PodLife {
  instanceId: number;
  configVersion: number;
  createdMs: number;
  admittedMs: number | null;
  runningMs: number | null;
  endMs: number | null;
  outcome: string;
}

/** One rolling update: its lag sample plus what the rollout ratio needs. */
interface Rollout {
  sample: Sample;
  /** ReplaceJob to the first batch's pods RUNNING: one instance replaced with nothing in its way. */
  perInstanceMs: number;
  batches: number;
  /** When each batch's last pod became RUNNING, relative to ReplaceJob. */
  batchDoneMs: number[];
  /** ReplaceJob to the last new pod RUNNING (the workflow's end). */
  platformMs: number;
  /** ReplaceJob to the engine's completion. */
  wallMs: number;
  /** The whole `up`, CLI start to return. */
  upMs: number;
  getJobPolls: number;
  otherReads: string[];
}

/** A vcluster wait: its lag sample, how it waited, and the poll interval the shared backoff would use at the finish. */
interface VclusterWait {
  sample: Sample;
  mode: "watch" | "poll";
  /** pollIntervalMs(finish - wait start): the pause polling would have been in when the vcluster finished. */
  backoffMs: number;
}

async function peloTimeline(plane: LocalPlane, jobId: string): Promise<PodLife[]> {
  return (await plane.admin<{ entries: PodLife[] }>(`/_local/peloton/timeline?job=${jobId}`)).entries;
}

/**
 * Reads one rolling update from the plane: the new version's pods (one per instance), grouped into
 * batches by creation time. The workflow finished when the last of them became RUNNING.
 */
async function measureRollout(plane: LocalPlane, window: UpWindow, jobId: string): Promise<Rollout> {
  const call = theCall(window, "ReplaceJob", jobId);
  const callMs = atMs(call);
  const doneMs = stepDoneMs(window, ":StatelessJob", "update");
  const pods = await peloTimeline(plane, jobId);
  const newest = Math.max(...pods.map((p) => p.configVersion));
  const fresh = pods.filter((p) => p.configVersion === newest && p.createdMs >= callMs);
  const instances = new Set(fresh.map((p) => p.instanceId));
  if (fresh.length !== INSTANCES || instances.size !== INSTANCES || fresh.some((p) => p.runningMs === null)) {
    throw new Error(`the timeline of job ${jobId} does not show ${INSTANCES} instances replaced and RUNNING on version ${newest}: ${JSON.stringify(fresh)}`);
  }
  const running = (p: PodLife) => p.runningMs as number;
  const starts = [...new Set(fresh.map((p) => p.createdMs))].sort((a, b) => a - b);
  const batchDone = starts.map((at) => Math.max(...fresh.filter((p) => p.createdMs === at).map(running)));
  const finishMs = Math.max(...fresh.map(running));
  const perInstanceMs = median(fresh.filter((p) => p.createdMs === starts[0]).map(running)) - callMs;
  const figures = pollFigures(window, call, finishMs, doneMs, (e) => e.api === "peloton" && e.operation === "GetJob");
  const otherReads = window.entries.filter((e) => e.seq > call.seq && e.api === "peloton" && e.operation !== "GetJob" && atMs(e) <= doneMs);
  return {
    sample: { durationMs: finishMs - callMs, lagMs: doneMs - finishMs, ...figures },
    perInstanceMs,
    batches: starts.length,
    batchDoneMs: batchDone.map((t) => t - callMs),
    platformMs: finishMs - callMs,
    wallMs: doneMs - callMs,
    upMs: window.endedMs - window.startedMs,
    getJobPolls: figures.polls,
    otherReads: otherReads.map((e) => e.operation),
  };
}

/**
 * Reads one vcluster wait from the audit log. The finish is the mutating call's time plus the
 * plane's duration for it. The provider reads the vcluster once more as soon as its wait ends (the
 * kubeconfig after a create, the outputs after an update), so the first GetVCluster at or after the
 * finish is when it noticed, with the watch as with polling.
 */
function measureVcluster(window: UpWindow, call: AuditEntry, kind: "create" | "scale", op: "create" | "update"): VclusterWait {
  const durationMs = operationDurationMs(kind, TIME_SCALE);
  const finishMs = atMs(call) + durationMs;
  const doneMs = stepDoneMs(window, ":VCluster", op);
  const isRead = (e: AuditEntry) => e.operation === "GetVCluster" && e.target === call.target;
  const figures = pollFigures(window, call, finishMs, doneMs, isRead);
  const watch = window.entries.find((e) => e.seq > call.seq && e.operation === "WatchVCluster" && e.target === call.target);
  if (!watch) throw new Error(`the wait for ${call.operation} ${call.target} opened no watch`);
  // Polling: reads between the watch and the finish (a read that found it not done yet).
  const polled = window.entries.some((e) => e.seq > watch.seq && isRead(e) && atMs(e) < finishMs);
  return {
    sample: { durationMs, lagMs: doneMs - finishMs, ...figures },
    mode: watch.code === "OK" && !polled ? "watch" : "poll",
    backoffMs: pollIntervalMs(finishMs - atMs(watch)),
  };
}

/** A Senlin action as `/_local/senlin/actions` shows it (times in epoch seconds). */
interface SenlinAction {
  id: string;
  action: string;
  status: string;
  start_time: number | null;
  end_time: number | null;
}

async function senlinActions(plane: LocalPlane): Promise<SenlinAction[]> {
  return (await plane.admin<{ actions: SenlinAction[] }>("/_local/senlin/actions")).actions;
}

function stringConfig(values: Record<string, string>) {
  return Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }]));
}

function summarize(samples: Sample[]) {
  const lag = median(samples.map((s) => s.lagMs));
  const duration = median(samples.map((s) => s.durationMs));
  return {
    medianDurationMs: round(duration, 0),
    medianLagMs: round(lag, 0),
    targetMs: round(targetMs(duration), 0),
    meetsTarget: lag <= targetMs(duration),
    medianDetectLagMs: round(median(samples.map((s) => s.detectLagMs)), 0),
    medianPolls: median(samples.map((s) => s.polls)),
    samples: samples.map((s) => ({ durationMs: round(s.durationMs, 0), lagMs: round(s.lagMs, 0), detectLagMs: round(s.detectLagMs, 0), polls: s.polls })),
  };
}

describe("platform lag: how long after Peloton, vcluster, Senlin and CycleCloud finish the engine reports the step done", () => {
  let plane: LocalPlane;
  let workspace: string;
  const rows: LagRow[] = [];

  beforeAll(async () => {
    workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE, flags: SENLIN_PLANE_FLAGS });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  const stackOf = (program: string, config: Record<string, string>, secrets: Record<string, string> = {}): Promise<EngineStack> =>
    openStack({
      programDir: copyBenchProgram(workspace, program),
      config: {
        ...stringConfig({ "clusterform:endpoint": plane.url, ...config }),
        ...Object.fromEntries(Object.entries(secrets).map(([k, value]) => [k, { value, secret: true }])),
      },
    });

  it(`Peloton: ${RUNS} rolling updates of ${INSTANCES} instances in batches of ${BATCH_SIZE}`, async () => {
    const stack = await stackOf("peloton-job", { "bench:instances": String(INSTANCES), "bench:batchSize": String(BATCH_SIZE), "bench:image": "nginx:1.27" });
    const created = await upWindow(plane, stack);
    const jobId = String(created.outputs.jobId);
    const rollouts: Rollout[] = [];
    for (let run = 1; run <= RUNS; run++) {
      await stack.setConfig("bench:image", `nginx:1.${27 + run}`);
      rollouts.push(await measureRollout(plane, await upWindow(plane, stack), jobId));
    }
    rows.push({
      platform: "Peloton",
      operation: `StatelessJob update (ReplaceJob, ${INSTANCES} instances, batch ${BATCH_SIZE})`,
      finish: "last new-version pod RUNNING in /_local/peloton/timeline",
      samples: rollouts.map((r) => r.sample),
    });

    const ideal = (r: Rollout) => Math.ceil(INSTANCES / BATCH_SIZE) * r.perInstanceMs;
    const ratio = (r: Rollout) => r.wallMs / ideal(r);
    const table: Row[] = rollouts.map((r, i) => ({
      run: i + 1,
      "per-instance ms": round(r.perInstanceMs, 0),
      batches: r.batches,
      "ideal ms": round(ideal(r), 0),
      "platform ms": round(r.platformMs, 0),
      "platform ratio": round(r.platformMs / ideal(r), 3),
      "wall ms": round(r.wallMs, 0),
      ratio: round(ratio(r), 3),
      verdict: ratio(r) <= ROLLOUT_RATIO_TARGET ? "meets" : "MISSES",
      "GetJob polls": r.getJobPolls,
      "other reads": r.otherReads.length,
    }));
    const medianRatio = median(rollouts.map(ratio));
    table.push({
      run: "median",
      "per-instance ms": round(median(rollouts.map((r) => r.perInstanceMs)), 0),
      batches: median(rollouts.map((r) => r.batches)),
      "ideal ms": round(median(rollouts.map(ideal)), 0),
      "platform ms": round(median(rollouts.map((r) => r.platformMs)), 0),
      "platform ratio": round(median(rollouts.map((r) => r.platformMs / ideal(r))), 3),
      "wall ms": round(median(rollouts.map((r) => r.wallMs)), 0),
      ratio: round(medianRatio, 3),
      verdict: medianRatio <= ROLLOUT_RATIO_TARGET ? "meets" : "MISSES",
      "GetJob polls": median(rollouts.map((r) => r.getJobPolls)),
      "other reads": median(rollouts.map((r) => r.otherReads.length)),
    });
    publish(
      "peloton-rollout",
      `Peloton rolling update, ${INSTANCES} instances in batches of ${BATCH_SIZE}, time scale ${TIME_SCALE}: wall (ReplaceJob -> engine done) over ceil(n/b) x per-instance time, target <= ${ROLLOUT_RATIO_TARGET}`,
      table,
      {
        timeScale: TIME_SCALE,
        instances: INSTANCES,
        batchSize: BATCH_SIZE,
        ratioTarget: ROLLOUT_RATIO_TARGET,
        medianRatio: round(medianRatio, 3),
        meetsTarget: medianRatio <= ROLLOUT_RATIO_TARGET,
        rollouts: rollouts.map((r) => ({ ...r, idealMs: ideal(r), ratio: round(ratio(r), 3), otherReads: r.otherReads })),
      },
    );
  });

  it(`vcluster: ${RUNS} creates, ${RUNS} scales with the watch and ${RUNS} with the watch refused`, async () => {
    const stack = await stackOf("vcluster-fleet", { "bench:count": "0", "bench:replicas": "1" });
    const creates: VclusterWait[] = [];
    for (let i = 0; i < RUNS; i++) {
      await stack.setConfig("bench:count", String(i + 1));
      const window = await upWindow(plane, stack);
      creates.push(measureVcluster(window, theCall(window, "CreateVCluster", `bench/vc-${i}`), "create", "create"));
    }
    const scale = async (replicas: number, refuseWatch: boolean): Promise<VclusterWait> => {
      if (refuseWatch) {
        // The watch cannot open, so the provider falls back to polling GetVCluster with the shared backoff.
        await plane.addFault({ api: "vcluster", operation: "WatchVCluster", target: "bench/vc-0", action: "error", code: "UNAVAILABLE", message: "bench: watch refused", count: 1 });
      }
      await stack.setConfig("bench:replicas", String(replicas));
      const window = await upWindow(plane, stack);
      const wait = measureVcluster(window, theCall(window, "ScaleVCluster", "bench/vc-0"), "scale", "update");
      const wanted = refuseWatch ? "poll" : "watch";
      if (wait.mode !== wanted) throw new Error(`the scale to ${replicas} replicas waited by ${wait.mode}, not by ${wanted}: cannot compare the modes`);
      return wait;
    };
    const watched: VclusterWait[] = [];
    for (const replicas of [2, 3, 4]) watched.push(await scale(replicas, false));
    const polled: VclusterWait[] = [];
    for (const replicas of [3, 2, 1]) polled.push(await scale(replicas, true));

    const finish = "call time + BASE_DURATION_MS x time scale (emulator/vcluster/lifecycle.ts)";
    rows.push({ platform: "vcluster", operation: "VCluster create (CreateVCluster)", finish, samples: creates.map((w) => w.sample) });
    rows.push({ platform: "vcluster", operation: "VCluster scale (ScaleVCluster)", finish, samples: watched.map((w) => w.sample) });

    const modeRow = (label: string, waits: VclusterWait[]) => ({
      wait: label,
      mode: waits[0].mode,
      "median detect lag ms": round(median(waits.map((w) => w.sample.detectLagMs)), 0),
      "detect lags ms": waits.map((w) => round(w.sample.detectLagMs, 0)).join(" "),
      "backoff interval at finish ms": median(waits.map((w) => w.backoffMs)),
      "median lag ms": round(median(waits.map((w) => w.sample.lagMs)), 0),
      "median reads": median(waits.map((w) => w.sample.polls)),
    });
    publish(
      "vcluster-watch",
      `vcluster waits at time scale ${TIME_SCALE} (operations of ${operationDurationMs("scale", TIME_SCALE)} ms): detect lag with WatchVCluster against polling`,
      [modeRow("create", creates), modeRow("scale", watched), modeRow("scale, watch refused", polled)],
      { timeScale: TIME_SCALE, creates, watched, polled },
    );
  });

  it(`Senlin: ${RUNS} resizes`, async () => {
    const rest = await senlinRest(plane);
    await rest.createProfile("web-profile");
    const stack = await stackOf(
      "senlin-cluster",
      { ...SENLIN_CONFIG, "bench:capacity": "1" },
      { "clusterform:senlinPassword": SENLIN_USER.password },
    );
    await upWindow(plane, stack);
    const samples: Sample[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const known = new Set((await senlinActions(plane)).map((a) => a.id));
      await stack.setConfig("bench:capacity", String(1 + run));
      const window = await upWindow(plane, stack);
      const call = theCall(window, "ResizeCluster");
      const resized = (await senlinActions(plane)).filter((a) => !known.has(a.id) && a.action === "CLUSTER_RESIZE");
      if (resized.length !== 1 || resized[0].status !== "SUCCEEDED" || resized[0].end_time === null || resized[0].start_time === null) {
        throw new Error(`expected one new CLUSTER_RESIZE action SUCCEEDED, got ${JSON.stringify(resized)}`);
      }
      const finishMs = Math.round(resized[0].end_time * 1000);
      const doneMs = stepDoneMs(window, ":Cluster", "update");
      const figures = pollFigures(window, call, finishMs, doneMs, (e) => e.operation === "GetAction" && e.target === resized[0].id);
      samples.push({ durationMs: finishMs - atMs(call), lagMs: doneMs - finishMs, ...figures });
    }
    rows.push({ platform: "Senlin", operation: "Cluster resize (CLUSTER_RESIZE action)", finish: "the action's end_time in /_local/senlin/actions", samples });
  });

  it(`CycleCloud: ${RUNS} count-ups of a node pool`, async () => {
    const stack = await stackOf(
      "cyclecloud-pool",
      { "clusterform:cyclecloudUsername": CYCLECLOUD.username, "bench:count": "1" },
      { "clusterform:cyclecloudPassword": CYCLECLOUD.password },
    );
    await upWindow(plane, stack);
    const createMs = TRANSITIONS.create.steps.reduce((sum, step) => sum + Math.round(STEP_DURATION_MS[step] * TIME_SCALE), 0);
    const samples: Sample[] = [];
    for (let run = 1; run <= RUNS; run++) {
      await stack.setConfig("bench:count", String(1 + run));
      const window = await upWindow(plane, stack);
      const call = theCall(window, "CreateNodes");
      const finishMs = atMs(call) + createMs;
      const doneMs = stepDoneMs(window, ":NodePool", "update");
      const figures = pollFigures(window, call, finishMs, doneMs, (e) => e.operation === "GetNodes");
      samples.push({ durationMs: createMs, lagMs: doneMs - finishMs, ...figures });
    }
    rows.push({
      platform: "CycleCloud",
      operation: "NodePool count +1 (CreateNodes)",
      finish: "call time + Acquiring + Preparing STEP_DURATION_MS x time scale (emulator/cyclecloud/lifecycle.ts)",
      samples,
    });
  });

  it("publishes the lag table", () => {
    if (rows.length === 0) throw new Error("no platform was measured");
    const summary = rows.map((row) => ({ ...row, ...summarize(row.samples) }));
    publish(
      "platform-lag",
      `Convergence lag of the newer platforms at time scale ${TIME_SCALE}, median of ${RUNS} (lag includes engine overhead)`,
      summary.map((s) => ({
        platform: s.platform,
        operation: s.operation,
        "duration ms": s.medianDurationMs,
        "median lag ms": s.medianLagMs,
        "target ms": s.targetMs,
        verdict: s.meetsTarget ? "meets" : "MISSES",
        "lags ms": s.samples.map((x) => x.lagMs).join(" "),
        "median detect lag ms": s.medianDetectLagMs,
        "median polls": s.medianPolls,
      })),
      { runs: RUNS, timeScale: TIME_SCALE, operations: summary },
    );
  });
});
