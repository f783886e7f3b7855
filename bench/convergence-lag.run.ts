import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, it } from "vitest";
import { BASE_DURATION_MS } from "../emulator/cmassh/lifecycle";
import type { OperationKind } from "../emulator/cmassh/store";
import { type EngineStack, openStack } from "../test/harness/engine";
import { type AuditEntry, type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, round } from "./support/report";

/** Fresh stacks, each taken through create, scale and upgrade. */
const RUNS = 3;
/** Realistic operation durations: create 3 s, upgrade 2 s, add pool 1.5 s, scale 1 s. */
const TIME_SCALE = 1;
const FROM_VERSION = "1.30.10";
const TO_VERSION = "1.31.6";

/** An operation whose lag is measured: the call that starts it and the engine step that ends it. */
interface Operation {
  label: string;
  /** The mutating RPC, as the audit log names it. */
  call: string;
  /** The emulator's operation kind, which sets the duration. */
  kind: OperationKind;
  /** The resource type token's suffix and the step op the engine reports when it is done. */
  resource: "cmassh:Cluster" | "cmassh:NodePool";
  op: OpType;
}

const OPERATIONS = {
  createCluster: { label: "create cluster", call: "CreateCluster", kind: "create", resource: "cmassh:Cluster", op: "create" },
  addPool: { label: "add node pool", call: "AddNodePool", kind: "add-pool", resource: "cmassh:NodePool", op: "create" },
  scalePool: { label: "scale node pool", call: "ScaleNodePool", kind: "scale-pool", resource: "cmassh:NodePool", op: "update" },
  upgrade: { label: "upgrade cluster", call: "UpgradeCluster", kind: "upgrade", resource: "cmassh:Cluster", op: "update" },
} as const satisfies Record<string, Operation>;
type OperationName = keyof typeof OPERATIONS;

/** One measured operation. */
interface Sample {
  /** Engine-reported completion minus the platform's finish (engine overhead included). */
  lagMs: number;
  /** The first poll at or after the finish minus the finish: the provider's own noticing delay. */
  detectLagMs: number;
  /** GetCluster calls after the mutating call, up to the step's completion. */
  polls: number;
}

/** A step the engine reported done, with the wall-clock time the event reached this process. */
interface StepDone {
  type: string;
  op: OpType;
  atMs: number;
}

/** What one `up` did: the audit entries it caused and the steps it completed. */
interface UpWindow {
  entries: AuditEntry[];
  done: StepDone[];
}

function durationMs(operation: Operation): number {
  return BASE_DURATION_MS[operation.kind] * TIME_SCALE;
}

/** The lag target: max(250 ms, 10% of the operation's duration). */
function targetMs(operation: Operation): number {
  return Math.max(250, 0.1 * durationMs(operation));
}

async function upWindow(plane: LocalPlane, stack: EngineStack): Promise<UpWindow> {
  const since = await plane.lastSeq();
  const done: StepDone[] = [];
  // Events stream over gRPC from CLI 3.206 on, so the callback runs as the engine emits them.
  const onEvent = (event: EngineEvent) => {
    const meta = event.resOutputsEvent?.metadata;
    if (meta) done.push({ type: meta.type, op: meta.op, atMs: Date.now() });
  };
  await stack.stack.up({ onEvent, color: "never" });
  return { entries: await plane.audit(since), done };
}

function measure(operation: Operation, window: UpWindow): Sample {
  const call = window.entries.find((e) => e.operation === operation.call && e.code === "OK");
  if (!call) throw new Error(`no successful ${operation.call} in the audit log of the ${operation.label} up`);
  const step = window.done.find((d) => d.type.endsWith(operation.resource) && d.op === operation.op);
  if (!step) throw new Error(`the engine reported no ${operation.op} of ${operation.resource} done`);
  const finishMs = Date.parse(call.time) + durationMs(operation);
  const polls = window.entries.filter((e) => e.operation === "GetCluster" && e.seq > call.seq);
  const detecting = polls.find((e) => Date.parse(e.time) >= finishMs);
  if (!detecting) throw new Error(`no GetCluster after ${operation.call} finished: the ${operation.label} was not waited for`);
  return {
    lagMs: step.atMs - finishMs,
    detectLagMs: Date.parse(detecting.time) - finishMs,
    polls: polls.filter((e) => Date.parse(e.time) <= step.atMs).length,
  };
}

describe("convergence lag: how long after the platform finishes the engine reports the step done", () => {
  let plane: LocalPlane;
  let workspace: string;

  beforeAll(async () => {
    workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it(`reports the lag of create, add pool, scale and upgrade over ${RUNS} fresh stacks`, async () => {
    const samples: Record<OperationName, Sample[]> = { createCluster: [], addPool: [], scalePool: [], upgrade: [] };
    for (let run = 1; run <= RUNS; run++) {
      const stack = await openStack({
        programDir: copyBenchProgram(workspace, "cmassh-pools"),
        stackName: `lag-${run}`,
        config: {
          "clusterform:endpoint": { value: plane.url },
          "bench:pools": { value: "1" },
          "bench:firstPoolSize": { value: "1" },
          "bench:version": { value: FROM_VERSION },
        },
      });
      const created = await upWindow(plane, stack);
      samples.createCluster.push(measure(OPERATIONS.createCluster, created));
      samples.addPool.push(measure(OPERATIONS.addPool, created));
      await stack.setConfig("bench:firstPoolSize", "2");
      samples.scalePool.push(measure(OPERATIONS.scalePool, await upWindow(plane, stack)));
      await stack.setConfig("bench:version", TO_VERSION);
      samples.upgrade.push(measure(OPERATIONS.upgrade, await upWindow(plane, stack)));
    }

    const summary = (Object.keys(OPERATIONS) as OperationName[]).map((name) => {
      const operation: Operation = OPERATIONS[name];
      const lag = median(samples[name].map((s) => s.lagMs));
      return {
        operation: operation.label,
        call: operation.call,
        durationMs: durationMs(operation),
        medianLagMs: round(lag, 0),
        targetMs: targetMs(operation),
        meetsTarget: lag <= targetMs(operation),
        medianDetectLagMs: round(median(samples[name].map((s) => s.detectLagMs)), 0),
        medianPolls: median(samples[name].map((s) => s.polls)),
        samples: samples[name].map((s) => ({ lagMs: round(s.lagMs, 0), detectLagMs: round(s.detectLagMs, 0), polls: s.polls })),
      };
    });
    const rows = summary.map((s) => ({
      operation: s.operation,
      "duration ms": s.durationMs,
      "median lag ms": s.medianLagMs,
      "target ms": s.targetMs,
      verdict: s.meetsTarget ? "meets" : "MISSES",
      "lags ms": s.samples.map((x) => x.lagMs).join(" "),
      "median detect lag ms": s.medianDetectLagMs,
      "median polls": s.medianPolls,
    }));
    publish("convergence-lag", `Convergence lag at time scale ${TIME_SCALE}, ${RUNS} fresh stacks (lag includes engine overhead)`, rows, {
      runs: RUNS,
      timeScale: TIME_SCALE,
      versions: { from: FROM_VERSION, to: TO_VERSION },
      operations: summary,
    });
  });
});
