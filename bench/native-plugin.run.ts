import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, type Row, round, timed } from "./support/report";

/**
 * Issue 16 point 8, in one run: the no-op preview per resource of native-plugin resources against
 * the trivial dynamic baseline, and the stored state bytes per resource of native resources against
 * today's dynamic resources (the same cma-ssh cluster, both ways). Targets: both ratios <= 0.5.
 */
const SIZE = Number(process.env.CLUSTERFORM_BENCH_NATIVE_SIZE ?? 100);
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 3);
const TARGET = 0.5;

type Name = "native" | "dynamic" | "trivial";

describe(`native plugin: no-op preview and state bytes at ${SIZE} resources`, () => {
  let plane: LocalPlane;
  const stacks = {} as Record<Name, EngineStack>;
  const previewMs: Record<Name, number[]> = { native: [], dynamic: [], trivial: [] };

  beforeAll(async () => {
    const workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.01 });
    const open = (program: string, config: Record<string, string>) =>
      openStack({ programDir: copyBenchProgram(workspace, program), config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])) });
    stacks.native = await open("native-clusters", { "bench:count": String(SIZE), "clusterform:endpoint": plane.url });
    stacks.dynamic = await open("cmassh-clusters", { "bench:count": String(SIZE), "clusterform:endpoint": plane.url });
    stacks.trivial = await open("trivial", { "bench:resources": String(SIZE) });
    for (const stack of Object.values(stacks)) await stack.up({ parallel: 16 });
  });
  afterAll(async () => {
    for (const stack of Object.values(stacks)) await stack?.destroy().catch(() => {});
    await plane?.stop();
  });

  it("measures", async () => {
    const names: Name[] = ["trivial", "native", "dynamic"];
    for (const name of names) await stacks[name].preview(); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      // Interleaved so a slow spell of the shared machine hits every program.
      for (const name of names) {
        const { value, ms } = await timed(() => stacks[name].preview());
        expect(changingSteps(value)).toEqual([]);
        previewMs[name].push(ms);
      }
    }
    const bytes = async (name: Name, type: string) => {
      const resources = (JSON.parse(await stacks[name].storedState()).checkpoint.latest.resources ?? []) as { type: string }[];
      const kept = resources.filter((r) => r.type === type);
      expect(kept).toHaveLength(SIZE);
      return kept.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0) / kept.length;
    };
    const stateBytes = { native: await bytes("native", "clusterform:cmassh:Cluster"), dynamic: await bytes("dynamic", "pulumi-nodejs:dynamic/cmassh:Cluster") };
    const perResource = (name: Name) => median(previewMs[name]) / SIZE;
    const previewRatio = perResource("native") / perResource("trivial");
    const stateRatio = stateBytes.native / stateBytes.dynamic;
    const rows: Row[] = names.map((name) => ({
      program: name,
      "no-op preview ms/resource": round(perResource(name), 1),
      "state bytes/resource": name === "trivial" ? "-" : round(stateBytes[name], 0),
    }));
    rows.push({ program: "ratio native/trivial preview", "no-op preview ms/resource": round(previewRatio), "state bytes/resource": "-" });
    rows.push({ program: "ratio native/dynamic state", "no-op preview ms/resource": "-", "state bytes/resource": round(stateRatio) });
    publish("native-plugin", `Native plugin vs dynamic at ${SIZE} resources (targets <= ${TARGET})`, rows, { size: SIZE, samples: SAMPLES, previewMs, stateBytes, previewRatio, stateRatio, target: TARGET });
  });
});
