import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
/** Bytes a resource's `__provider` value may take in state. */
const PROVIDER_BYTES_TARGET = 4096;

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
    plane = await startLocalPlane({ workspace, timeScale: TIME_SCALE });
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

  it("reports the state bytes per resource and the __provider bytes each resource carries", async () => {
    const sizes = {
      subject: stateSizes(await subject.stack!.storedState(), (type) => type.includes("cmassh:")),
      baseline: stateSizes(await baseline.stack!.storedState(), (type) => type.includes("bench:Trivial")),
    };
    for (const [label, s] of Object.entries(sizes)) {
      if (s.resources !== POOLS + 1) throw new Error(`${label} state holds ${s.resources} measured resources, not ${POOLS + 1}`);
    }
    const row = (label: string, s: StateSizes) => ({
      stack: label,
      resources: s.resources,
      "state bytes": s.stateBytes,
      "state bytes/resource": round(s.stateBytes / s.resources, 0),
      "__provider bytes max": s.providerBytes.max,
      "__provider bytes mean": round(s.providerBytes.mean, 0),
      "__provider stored/resource (inputs+outputs)": s.providerStoredBytes.max,
    });
    const worst = sizes.subject.providerBytes.max;
    const verdict = worst <= PROVIDER_BYTES_TARGET ? "meets" : "MISSES";
    publish(
      "state-size",
      `State size: cma-ssh __provider max ${worst} bytes (target <= ${PROVIDER_BYTES_TARGET}: ${verdict}); stored twice per resource: ${sizes.subject.providerStoredBytes.max} bytes`,
      [row(subject.label, sizes.subject), row(baseline.label, sizes.baseline)],
      {
        sizes,
        providerBytesTarget: PROVIDER_BYTES_TARGET,
        meetsTarget: worst <= PROVIDER_BYTES_TARGET,
        stateBytesPerResourceRatio: sizes.subject.stateBytes / sizes.subject.resources / (sizes.baseline.stateBytes / sizes.baseline.resources),
      },
    );
  });
});
