import * as os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram, yamlClustersProgram } from "./support/programs";
import { median, publish, type Row, round, timed } from "./support/report";

/**
 * Issue 17 point 5, second half, in one run: the no-op preview per resource of a Pulumi YAML
 * program against a TypeScript program, both on the native plugin with the same `SIZE` cma-ssh
 * clusters, each written as a user writes it (the TypeScript one with the `clusterform/native`
 * classes of the packed package), with the same inputs. Each language also runs a one-cluster
 * program, so the fixed cost of a preview (CLI start, language host, plugin start and its first
 * resource) is measured apart from the cost each further resource adds.
 */
const SIZE = Number(process.env.CLUSTERFORM_BENCH_YAML_SIZE ?? 100);
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 3);
if (!Number.isInteger(SIZE) || SIZE < 2) {
  throw new Error(`CLUSTERFORM_BENCH_YAML_SIZE is ${process.env.CLUSTERFORM_BENCH_YAML_SIZE}: a whole number of at least 2 is allowed (the one-cluster programs are the baseline)`);
}

type Name = "yaml" | "ts" | "yaml-1" | "ts-1";
const NAMES: Name[] = ["yaml-1", "ts-1", "yaml", "ts"];

describe(`YAML vs TypeScript on the native plugin: no-op preview at ${SIZE} resources`, () => {
  let plane: LocalPlane;
  const stacks = {} as Record<Name, EngineStack>;
  const previewMs: Record<Name, number[]> = { yaml: [], ts: [], "yaml-1": [], "ts-1": [] };

  beforeAll(async () => {
    const workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.01 });
    const endpoint = { "clusterform:endpoint": { value: plane.url } };
    stacks.yaml = await openStack({ programDir: yamlClustersProgram(workspace, SIZE), config: endpoint });
    stacks["yaml-1"] = await openStack({ programDir: yamlClustersProgram(workspace, 1), config: endpoint });
    const ts = (count: number) => openStack({ programDir: copyBenchProgram(workspace, "native-clusters-ts"), config: { ...endpoint, "bench:count": { value: String(count) } } });
    stacks.ts = await ts(SIZE);
    stacks["ts-1"] = await ts(1);
    for (const stack of Object.values(stacks)) await stack.up({ parallel: 16 });
  });
  afterAll(async () => {
    for (const stack of Object.values(stacks)) await stack?.destroy().catch(() => {});
    await plane?.stop();
  });

  it("measures", async () => {
    const load = [os.loadavg()[0]];
    for (const name of NAMES) await stacks[name].preview(); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      // Interleaved so a slow spell of the shared machine hits every program.
      for (const name of NAMES) {
        const { value, ms } = await timed(() => stacks[name].preview());
        expect(changingSteps(value)).toEqual([]);
        previewMs[name].push(ms);
      }
      load.push(os.loadavg()[0]);
    }
    // Both programs hold the same SIZE clusters of the same type, declared with the same inputs (the
    // name aside: the plugin derives it from the project, which differs).
    const declared: Record<string, unknown>[] = [];
    for (const name of ["yaml", "ts"] as const) {
      const resources = ((await stacks[name].exportState()).deployment.resources ?? []) as { type: string; inputs: Record<string, unknown> }[];
      const clusters = resources.filter((r) => r.type === "clusterform:cmassh:Cluster");
      expect(clusters).toHaveLength(SIZE);
      declared.push(...clusters.map(({ inputs: { name: _, ...rest } }) => rest));
    }
    expect(new Set(declared.map((d) => JSON.stringify(d))).size).toBe(1);
    const whole = (name: "yaml" | "ts") => median(previewMs[name]) / SIZE;
    const marginal = (name: "yaml" | "ts") => (median(previewMs[name]) - median(previewMs[`${name}-1`])) / (SIZE - 1);
    const rows: Row[] = NAMES.map((name) => ({
      program: name,
      "preview ms (median)": round(median(previewMs[name]), 0),
      "ms/resource": name.endsWith("-1") ? "-" : round(whole(name as "yaml" | "ts"), 1),
      "ms per further resource": name.endsWith("-1") ? "-" : round(marginal(name as "yaml" | "ts"), 1),
    }));
    const ratio = whole("yaml") / whole("ts");
    const marginalRatio = marginal("yaml") / marginal("ts");
    rows.push({ program: "ratio yaml/ts", "preview ms (median)": "-", "ms/resource": round(ratio), "ms per further resource": round(marginalRatio) });
    const loadRange = `${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}`;
    publish("yaml-preview", `No-op preview, YAML vs TypeScript on the native plugin, ${SIZE} cma-ssh clusters (load average ${loadRange})`, rows, {
      size: SIZE,
      samples: SAMPLES,
      previewMs,
      ratio,
      marginalRatio,
      loadAverage: load,
    });
  });
});
