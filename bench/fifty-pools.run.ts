import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERY_KIND, EVERY_KIND_PLANE_FLAGS, everyKindConfig, seedEveryKind } from "./support/every-kind";
import { changingSteps, type EngineStack, openStack, resourceSteps } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, round, timed } from "./support/report";
import { type StateSizes, stateSizes } from "./support/state-size";

/** Node pools beside the one cluster; the baseline declares as many resources in all (1 + 50). */
const POOLS = 50;
/** Counted no-op previews of each program, after one warm-up each. */
const PREVIEWS = 5;
/** Fast platform operations: 50 pools come up in seconds, and no-op previews never wait anyway. */
const TIME_SCALE = 0.05;
/** The subject's no-op preview may cost at most this much more than the baseline's. */
const PREVIEW_RATIO_TARGET = 1.2;
/** State bytes per resource may be at most this many times the trivial baseline's. */
const STATE_RATIO_TARGET = 1.5;
/** Copies of every kind in the stack spread over all five platforms (8 kinds: 48 resources). */
const SPREAD_COPIES = 6;

/** One program measured: the subject (cma-ssh) or its baseline (trivial), at some size. */
interface Measured {
  label: string;
  role: "subject" | "baseline";
  /** Resources the program declares. */
  resources: number;
  stack?: EngineStack;
  upSeconds?: number;
  previewSeconds: number[];
  /** API calls each counted preview made (subject only). */
  apiCalls: number[];
}

// The large pair answers the question; the one-resource pair splits the difference into a fixed
// cost per run (loading the package, starting the provider) and a cost per resource.
const PROGRAMS: Measured[] = [
  { label: `baseline: ${POOLS + 1} trivial dynamic resources`, role: "baseline", resources: POOLS + 1, previewSeconds: [], apiCalls: [] },
  { label: `subject: 1 cluster + ${POOLS} node pools`, role: "subject", resources: POOLS + 1, previewSeconds: [], apiCalls: [] },
  { label: "baseline: 1 trivial dynamic resource", role: "baseline", resources: 1, previewSeconds: [], apiCalls: [] },
  { label: "subject: 1 cluster, no pools", role: "subject", resources: 1, previewSeconds: [], apiCalls: [] },
];

async function openMeasured(m: Measured, workspace: string, plane: LocalPlane): Promise<EngineStack> {
  if (m.role === "baseline") {
    return openStack({
      programDir: copyBenchProgram(workspace, "trivial"),
      stackName: `r${m.resources}`,
      config: { "bench:resources": { value: String(m.resources) } },
    });
  }
  return openStack({
    programDir: copyBenchProgram(workspace, "cmassh-pools"),
    stackName: `r${m.resources}`,
    config: { "clusterform:endpoint": { value: plane.url }, "bench:pools": { value: String(m.resources - 1) } },
  });
}

const medianOf = (m: Measured) => median(m.previewSeconds);

describe(`one cma-ssh cluster with ${POOLS} node pools, against ${POOLS + 1} trivial dynamic resources`, () => {
  let plane: LocalPlane;
  const [baseline, subject, baselineOne, subjectOne] = PROGRAMS;

  beforeAll(async () => {
    const workspace = benchWorkspace();
    // The Keystone user and Senlin profile serve the all-platforms stack of the state-size case.
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE, flags: [...EVERY_KIND_PLANE_FLAGS] });
    await seedEveryKind(plane);
    for (const m of PROGRAMS) {
      m.stack = await openMeasured(m, workspace, plane);
      const up = await timed(() => m.stack!.up());
      const created = resourceSteps(up.value).filter((s) => s.op === "create" && !s.failed);
      if (created.length !== m.resources) throw new Error(`${m.label}: up created ${created.length} resources, not ${m.resources}`);
      m.upSeconds = round(up.ms / 1000);
    }
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("reports the cost of a no-op preview against the trivial baseline, and the API calls it made", async () => {
    // Interleaved (baseline, subject, baseline, subject...) so a slow spell of the machine hits both.
    for (let pass = 0; pass <= PREVIEWS; pass++) {
      for (const m of PROGRAMS) {
        const since = await plane.lastSeq();
        const preview = await timed(() => m.stack!.preview());
        const calls = (await plane.audit(since)).length;
        // A preview that plans changes is not a no-op preview: its time would mean something else.
        expect(changingSteps(preview.value), `${m.label}: no-op preview`).toEqual([]);
        if (pass === 0) continue; // warm-up: the first runs pay for cold file caches
        m.previewSeconds.push(preview.ms / 1000);
        m.apiCalls.push(calls);
      }
    }

    const ratio = medianOf(subject) / medianOf(baseline);
    const perResourceMs = (big: Measured, small: Measured) => (1000 * (medianOf(big) - medianOf(small))) / (big.resources - small.resources);
    const breakdown = {
      fixedExtraSeconds: medianOf(subjectOne) - medianOf(baselineOne),
      perResourceMs: { subject: perResourceMs(subject, subjectOne), baseline: perResourceMs(baseline, baselineOne) },
    };
    const subjectCalls = [...subject.apiCalls, ...subjectOne.apiCalls].reduce((a, b) => a + b, 0);
    const rows = PROGRAMS.map((m) => ({
      program: m.label,
      "up s": m.upSeconds ?? "",
      "preview median s": round(medianOf(m)),
      "previews s": m.previewSeconds.map((s) => round(s)).join(" "),
      "API calls": m.role === "subject" ? m.apiCalls.join(" ") : "-",
    }));
    const verdict = ratio <= PREVIEW_RATIO_TARGET ? "meets" : "MISSES";
    publish(
      "noop-preview",
      `No-op preview, ${PREVIEWS} each, interleaved: ratio subject/baseline ${round(ratio)} (target <= ${PREVIEW_RATIO_TARGET}: ${verdict}); ` +
        `subject API calls ${subjectCalls}; fixed extra ${round(breakdown.fixedExtraSeconds)} s per run; ` +
        `per resource ${round(breakdown.perResourceMs.subject, 1)} ms vs ${round(breakdown.perResourceMs.baseline, 1)} ms`,
      rows,
      {
        previews: PREVIEWS,
        timeScale: TIME_SCALE,
        programs: PROGRAMS.map(({ stack: _stack, ...m }) => ({ ...m, medianSeconds: medianOf(m) })),
        ratio,
        ratioTarget: PREVIEW_RATIO_TARGET,
        meetsTarget: ratio <= PREVIEW_RATIO_TARGET,
        subjectApiCalls: subjectCalls,
        breakdown,
      },
    );
  });

  it("reports the state bytes per resource against as many trivial resources, for cma-ssh and for all five platforms", async () => {
    const workspace = benchWorkspace();
    const spreadCount = SPREAD_COPIES * EVERY_KIND.length;
    const spread = await openStack({ programDir: copyBenchProgram(workspace, "every-kind"), stackName: "spread", config: everyKindConfig(plane, SPREAD_COPIES) });
    const spreadBaseline = await openStack({
      programDir: copyBenchProgram(workspace, "trivial"),
      stackName: `r${spreadCount}`,
      config: { "bench:resources": { value: String(spreadCount) } },
    });
    for (const [label, stack] of [
      ["all platforms", spread],
      ["trivial", spreadBaseline],
    ] as const) {
      const created = resourceSteps(await stack.up()).filter((s) => s.op === "create" && !s.failed);
      if (created.length !== spreadCount) throw new Error(`${label}: up created ${created.length} resources, not ${spreadCount}`);
    }

    const isClusterform = (type: string) => EVERY_KIND.some((kind) => type === `pulumi-nodejs:dynamic/${kind}`);
    const isTrivial = (type: string) => type.includes("bench:Trivial");
    const pairs = [
      {
        label: `cma-ssh: 1 cluster + ${POOLS} node pools`,
        subject: stateSizes(await subject.stack!.storedState(), isClusterform),
        baseline: stateSizes(await baseline.stack!.storedState(), isTrivial),
        resources: POOLS + 1,
      },
      {
        label: `all five platforms: ${SPREAD_COPIES} of each of the ${EVERY_KIND.length} kinds`,
        subject: stateSizes(await spread.storedState(), isClusterform),
        baseline: stateSizes(await spreadBaseline.storedState(), isTrivial),
        resources: spreadCount,
      },
    ].map((p) => {
      for (const [role, s] of [
        ["subject", p.subject],
        ["baseline", p.baseline],
      ] as const) {
        if (s.resources !== p.resources) throw new Error(`${p.label}: the ${role} state holds ${s.resources} measured resources, not ${p.resources}`);
      }
      return { ...p, ratio: bytesPerResource(p.subject) / bytesPerResource(p.baseline) };
    });
    const row = (stack: string, s: StateSizes, ratio: number | string) => ({
      stack,
      resources: s.resources,
      "state bytes": s.stateBytes,
      "state bytes/resource": round(bytesPerResource(s), 0),
      ratio,
      "__provider bytes max": s.providerBytes.max,
      "__provider stored/resource (inputs+outputs)": round(s.providerStoredBytes.mean, 0),
    });
    const rows = pairs.flatMap((p) => [row(`subject, ${p.label}`, p.subject, round(p.ratio)), row(`baseline: ${p.resources} trivial`, p.baseline, "-")]);
    const verdict = (ratio: number) => (ratio <= STATE_RATIO_TARGET ? "meets" : "MISSES");
    publish(
      "state-size",
      `State bytes per resource / trivial baseline's (target <= ${STATE_RATIO_TARGET}): ` +
        pairs.map((p) => `${p.label} ${round(p.ratio)} (${verdict(p.ratio)})`).join("; "),
      rows,
      {
        ratioTarget: STATE_RATIO_TARGET,
        pairs: pairs.map((p) => ({ ...p, meetsTarget: p.ratio <= STATE_RATIO_TARGET })),
      },
    );
  });
});

/** Bytes of the stored checkpoint per measured resource (the stack and provider entries included in the bytes). */
function bytesPerResource(s: StateSizes): number {
  return s.stateBytes / s.resources;
}
