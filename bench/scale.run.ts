import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { SENLIN_CONFIG, SENLIN_PLANE_FLAGS, SENLIN_USER, senlinRest } from "../test/harness/senlin-stack";
import { changedOps, cliUp } from "./support/cli-up";
import { type MemorySampler, type PeakMemory, type ProcessRole, sampleMemory } from "./support/memory";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, type Row, round, timed } from "./support/report";

/**
 * Stack sizes measured, smallest first (each a multiple of 10: the subject grows in units of 10
 * resources). `CLUSTERFORM_BENCH_SIZES=10,100` measures fewer, for a quick look.
 */
const SIZES = (process.env.CLUSTERFORM_BENCH_SIZES ?? "10,100,300").split(",").map(Number);
/** Counted no-op previews and no-op ups of each program at each size, after one warm-up of each (`CLUSTERFORM_BENCH_SAMPLES` overrides it). */
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 3);
/** Platform operations at 1% of their duration: the 300-resource up is CPU-bound, not waiting. */
const TIME_SCALE = 0.01;
/** `--parallel` of the ups that grow the stacks (not measured). */
const GROW_PARALLEL = 16;
/** Target of subject/baseline for the no-op preview and the no-op up at each size. */
const RATIO_TARGET = 1.2;
/** Nodes the CycleCloud nodearray `execute` may hold: two 1-node pools per unit, 30 units at 300. */
const CYCLECLOUD_QUOTA = 200;
/** The marker each program's processes carry, so the memory sampler finds the runs of one program only. */
const MARKER = "CLUSTERFORM_BENCH_PROGRAM";

type Side = "subject" | "baseline";
type Operation = "preview" | "up";

/** What was measured of one program at one size. */
interface Samples {
  seconds: Record<Operation, number[]>;
  apiCalls: Record<Operation, number[]>;
  /** Peak MiB per process role, per counted run (largest size only). */
  memory: Record<Operation, PeakMemory[]>;
  /** Every process each sampled run had, with its peak (largest size only): the evidence behind `memory`. */
  processes: Record<Operation, { role: ProcessRole; peakMib: number; cmdline: string }[][]>;
}

interface Program {
  side: Side;
  label: string;
  stack: EngineStack;
  /** Resources it declares now. */
  resources: number;
  /** Seconds the up to each size took (creating only the resources added). */
  growSeconds: Record<number, number>;
  bySize: Record<number, Samples>;
}

const emptySamples = (): Samples => ({ seconds: { preview: [], up: [] }, apiCalls: { preview: [], up: [] }, memory: { preview: [], up: [] }, processes: { preview: [], up: [] } });

describe(`no-op preview and up of ${SIZES.join(", ")} resources over all five platforms, against as many trivial dynamic resources`, () => {
  const startedMs = Date.now();
  let plane: LocalPlane;
  let auditCursor = 0;
  const programs: Record<Side, Program> = {} as Record<Side, Program>;

  /** API calls the plane received since the last call of this function. */
  const callsSinceLast = async (): Promise<number> => {
    const entries = await plane.audit(auditCursor);
    auditCursor = entries.at(-1)?.seq ?? auditCursor;
    return entries.length;
  };

  beforeAll(async () => {
    const workspace = benchWorkspace();
    const definitions = path.join(workspace, "bench-cyclecloud-clusters.json");
    writeFileSync(definitions, JSON.stringify({ clusters: [{ name: "demo", nodearrays: [{ name: "execute", machineType: "Standard_F2s_v2", quota: CYCLECLOUD_QUOTA }] }] }));
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE, flags: [...SENLIN_PLANE_FLAGS, "--cyclecloud-clusters", definitions] });
    await (await senlinRest(plane)).createProfile("web-profile");
    const open = async (side: Side, program: string, config: Record<string, string>, secrets: Record<string, string> = {}) => {
      const stack = await openStack({
        programDir: copyBenchProgram(workspace, program),
        stackName: side,
        config: {
          ...Object.fromEntries(Object.entries(config).map(([k, value]) => [k, { value }])),
          ...Object.fromEntries(Object.entries(secrets).map(([k, value]) => [k, { value, secret: true }])),
        },
        env: { [MARKER]: side },
      });
      return { side, label: "", stack, resources: 0, growSeconds: {}, bySize: {} };
    };
    programs.baseline = await open("baseline", "trivial", { "bench:resources": "0" });
    programs.subject = await open(
      "subject",
      "fleet",
      { "clusterform:endpoint": plane.url, ...SENLIN_CONFIG, "clusterform:cyclecloudUsername": "admin", "bench:units": "0" },
      { "clusterform:senlinPassword": SENLIN_USER.password, "clusterform:cyclecloudPassword": "admin" },
    );
  });
  afterAll(async () => {
    await plane?.stop();
    console.log(`bench/scale.run.ts took ${round((Date.now() - startedMs) / 1000, 0)} s`);
  });

  /** Grows a program to `size` resources with one up that only creates. */
  const grow = async (p: Program, size: number) => {
    await p.stack.setConfig(p.side === "subject" ? "bench:units" : "bench:resources", String(p.side === "subject" ? size / 10 : size));
    const up = await cliUp(p.stack, { parallel: GROW_PARALLEL });
    const created = [...up.ops.values()].filter((op) => op === "create").length;
    if (created !== size - p.resources || up.ops.size !== size) {
      throw new Error(`${p.side}: the up to ${size} resources created ${created} of ${up.ops.size} (expected ${size - p.resources}); steps: ${changedOps(up.ops).join(", ")}`);
    }
    p.resources = size;
    p.growSeconds[size] = round(up.ms / 1000);
    p.label = p.side === "subject" ? `subject: ${size} resources of 8 kinds, 5 platforms` : `baseline: ${size} trivial dynamic resources`;
    await callsSinceLast();
  };

  /** One no-op run of `op`; memory is sampled when `withMemory`. */
  const measure = async (p: Program, op: Operation, withMemory: boolean) => {
    const sampler = withMemory ? sampleMemory(`${MARKER}=${p.side}`) : undefined;
    let memory: ReturnType<MemorySampler["stop"]> | undefined;
    // Stopped only once the CLI has exited, so every process of the run is in the figures.
    const ms = await noopRun(p, op).finally(() => {
      memory = sampler?.stop();
    });
    return { seconds: ms / 1000, apiCalls: await callsSinceLast(), memory };
  };

  /** Runs a no-op preview or up and returns its milliseconds; throws unless every step is `same`. */
  const noopRun = async (p: Program, op: Operation): Promise<number> => {
    if (op === "preview") {
      const preview = await timed(() => p.stack.preview());
      // A preview that plans changes is not a no-op preview: its time would mean something else.
      expect(changingSteps(preview.value), `${p.label}: no-op preview`).toEqual([]);
      return preview.ms;
    }
    const up = await cliUp(p.stack);
    expect(changedOps(up.ops), `${p.label}: no-op up`).toEqual([]);
    expect(up.ops.size, `${p.label}: resources the no-op up visited`).toBe(p.resources);
    return up.ms;
  };

  for (const size of SIZES) {
    it(`${size} resources: no-op preview and no-op up, ${SAMPLES} of each, interleaved`, async () => {
      for (const p of [programs.baseline, programs.subject]) await grow(p, size);
      const withMemory = size === Math.max(...SIZES);
      for (const p of Object.values(programs)) p.bySize[size] = emptySamples();
      // Interleaved (baseline, subject, baseline, subject...) so a slow spell of the machine hits both.
      for (let pass = 0; pass <= SAMPLES; pass++) {
        for (const op of ["preview", "up"] as const) {
          for (const p of [programs.baseline, programs.subject]) {
            const run = await measure(p, op, withMemory && pass > 0);
            if (pass === 0) continue; // warm-up: the first runs pay for cold file caches
            const samples = p.bySize[size];
            samples.seconds[op].push(run.seconds);
            samples.apiCalls[op].push(run.apiCalls);
            if (run.memory) {
              samples.memory[op].push(run.memory.peaks);
              samples.processes[op].push(run.memory.processes.map(({ role, peakMib, cmdline }) => ({ role, peakMib: round(peakMib, 1), cmdline: cmdline.slice(0, 160) })));
            }
          }
        }
      }
      publishSize(size);
    });
  }

  function publishSize(size: number) {
    const { subject, baseline } = programs;
    const med = (p: Program, op: Operation) => median(p.bySize[size].seconds[op]);
    const ratio = (op: Operation) => med(subject, op) / med(baseline, op);
    const rows: Row[] = [baseline, subject].map((p) => ({
      program: p.label,
      "grow up s": p.growSeconds[size],
      "preview median s": round(med(p, "preview")),
      "previews s": p.bySize[size].seconds.preview.map((s) => round(s)).join(" "),
      "up median s": round(med(p, "up")),
      "ups s": p.bySize[size].seconds.up.map((s) => round(s)).join(" "),
      "API calls (previews; ups)": `${p.bySize[size].apiCalls.preview.join(" ")}; ${p.bySize[size].apiCalls.up.join(" ")}`,
    }));
    const verdict = (op: Operation) => (ratio(op) <= RATIO_TARGET ? "meets" : "MISSES");
    const subjectCalls = [...subject.bySize[size].apiCalls.preview, ...subject.bySize[size].apiCalls.up].reduce((a, b) => a + b, 0);
    publish(
      `scale-${size}`,
      `${size} resources, ${SAMPLES} no-op runs of each, interleaved: preview ratio ${round(ratio("preview"))} (target <= ${RATIO_TARGET}: ${verdict("preview")}), ` +
        `up ratio ${round(ratio("up"))} (${verdict("up")}); subject API calls in all its counted no-op runs: ${subjectCalls}`,
      rows,
      {
        size,
        samples: SAMPLES,
        timeScale: TIME_SCALE,
        ratioTarget: RATIO_TARGET,
        previewRatio: ratio("preview"),
        upRatio: ratio("up"),
        meetsTarget: { preview: ratio("preview") <= RATIO_TARGET, up: ratio("up") <= RATIO_TARGET },
        subjectApiCalls: subjectCalls,
        programs: [baseline, subject].map((p) => ({ side: p.side, label: p.label, growSeconds: p.growSeconds[size], ...p.bySize[size] })),
      },
    );
    if (subject.bySize[size].memory.preview.length > 0) publishMemory(size);
  }

  /** The peak RSS of each process role: the largest over the counted runs of the size. */
  function publishMemory(size: number) {
    const { subject, baseline } = programs;
    const roles: ProcessRole[] = ["provider host (node)", "program (node)", "language host (Go)", "cli"];
    const peak = (p: Program, op: Operation, role: ProcessRole) => Math.max(0, ...p.bySize[size].memory[op].map((m) => m[role] ?? 0));
    const rows: Row[] = roles.map((role) => ({
      process: role,
      "preview subject MiB": round(peak(subject, "preview", role), 0),
      "preview baseline MiB": round(peak(baseline, "preview", role), 0),
      "preview ratio": round(peak(subject, "preview", role) / peak(baseline, "preview", role)),
      "up subject MiB": round(peak(subject, "up", role), 0),
      "up baseline MiB": round(peak(baseline, "up", role), 0),
      "up ratio": round(peak(subject, "up", role) / peak(baseline, "up", role)),
    }));
    publish(
      "scale-memory",
      `Peak RSS (VmHWM, sampled every 100 ms) of each process of the no-op runs at ${size} resources, the largest of ${SAMPLES} counted runs`,
      rows,
      {
        size,
        samples: SAMPLES,
        peaksMib: Object.fromEntries([baseline, subject].map((p) => [p.side, p.bySize[size].memory])),
      },
    );
  }
});
