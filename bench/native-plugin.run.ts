import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { benchWorkspace, copyBenchProgram, yamlClustersProgram } from "./support/programs";
import { median, publish, type Row, round, timed } from "./support/report";

/**
 * Issue 16 point 8, in one run: the no-op preview per resource of native-plugin resources against
 * the trivial dynamic baseline, and the stored state bytes per resource of native resources against
 * today's dynamic resources (the same cma-ssh cluster, both ways). Targets: both ratios <= 0.5.
 *
 * A preview's time is a fixed part (the CLI, the language host, the program's and the plugins'
 * start) plus a part per resource. Each program therefore runs at two sizes, SIZE and SMALL, and the
 * report gives both the whole preview divided by SIZE and the marginal cost of one more resource
 * ((preview at SIZE - preview at SMALL) / (SIZE - SMALL)). The same native clusters also run from a
 * Pulumi YAML program (`native-yaml`), which has no Node.js program: what the Node.js SDK's
 * registration costs per resource shows as the difference.
 */
const SIZE = Number(process.env.CLUSTERFORM_BENCH_NATIVE_SIZE ?? 100);
const SMALL = Number(process.env.CLUSTERFORM_BENCH_NATIVE_SMALL ?? 10);
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 3);
const TARGET = 0.5;

/**
 * `native`: clusters registered as bare custom resources under the native token (the least a Node.js
 * program can register); `native-classes`: the same clusters written as users write them, with the
 * package's `clusterform/native` classes (TypeScript); `native-yaml`: declared in a Pulumi YAML
 * program (no Node.js program at all).
 */
type Name = "native" | "native-classes" | "dynamic" | "trivial" | "native-yaml";
const NAMES: Name[] = ["trivial", "native", "native-classes", "dynamic", "native-yaml"];
type Size = "large" | "small";

describe(`native plugin: no-op preview and state bytes at ${SIZE} (and ${SMALL}) resources`, () => {
  let plane: LocalPlane;
  const stacks = { large: {}, small: {} } as Record<Size, Record<Name, EngineStack>>;
  const previewMs = {
    large: { native: [], "native-classes": [], dynamic: [], trivial: [], "native-yaml": [] },
    small: { native: [], "native-classes": [], dynamic: [], trivial: [], "native-yaml": [] },
  } as Record<Size, Record<Name, number[]>>;

  beforeAll(async () => {
    const workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.01 });
    const open = (program: string, config: Record<string, string>) =>
      openStack({ programDir: copyBenchProgram(workspace, program), config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])) });
    for (const [size, n] of [["large", SIZE], ["small", SMALL]] as const) {
      stacks[size].native = await open("native-clusters", { "bench:count": String(n), "clusterform:endpoint": plane.url });
      stacks[size]["native-classes"] = await open("native-clusters-ts", { "bench:count": String(n), "clusterform:endpoint": plane.url });
      stacks[size].dynamic = await open("cmassh-clusters", { "bench:count": String(n), "clusterform:endpoint": plane.url });
      stacks[size].trivial = await open("trivial", { "bench:resources": String(n) });
      stacks[size]["native-yaml"] = await openStack({ programDir: yamlClustersProgram(workspace, n), config: { "clusterform:endpoint": { value: plane.url } } });
    }
    for (const size of ["large", "small"] as const) for (const stack of Object.values(stacks[size])) await stack.up({ parallel: 16 });
  });
  afterAll(async () => {
    for (const size of ["large", "small"] as const) for (const stack of Object.values(stacks[size])) await stack?.destroy().catch(() => {});
    await plane?.stop();
  });

  it("measures", async () => {
    for (const size of ["large", "small"] as const) for (const name of NAMES) await stacks[size][name].preview(); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      // Interleaved so a slow spell of the shared machine hits every program and size.
      for (const size of ["large", "small"] as const) {
        for (const name of NAMES) {
          const { value, ms } = await timed(() => stacks[size][name].preview());
          expect(changingSteps(value)).toEqual([]);
          previewMs[size][name].push(ms);
        }
      }
    }
    const bytes = async (name: Name, type: string) => {
      const resources = (JSON.parse(await stacks.large[name].storedState()).checkpoint.latest.resources ?? []) as { type: string }[];
      const kept = resources.filter((r) => r.type === type);
      expect(kept).toHaveLength(SIZE);
      return kept.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0) / kept.length;
    };
    const stateBytes: Partial<Record<Name, number>> = {
      native: await bytes("native", "clusterform:cmassh:Cluster"),
      "native-classes": await bytes("native-classes", "clusterform:cmassh:Cluster"),
      "native-yaml": await bytes("native-yaml", "clusterform:cmassh:Cluster"),
      dynamic: await bytes("dynamic", "pulumi-nodejs:dynamic/cmassh:Cluster"),
    };
    const perResource = (name: Name) => median(previewMs.large[name]) / SIZE;
    const marginal = (name: Name) => (median(previewMs.large[name]) - median(previewMs.small[name])) / (SIZE - SMALL);
    const previewRatio = perResource("native") / perResource("trivial");
    const marginalRatio = marginal("native") / marginal("trivial");
    const yamlRatio = perResource("native-yaml") / perResource("trivial");
    const yamlMarginalRatio = marginal("native-yaml") / marginal("trivial");
    const classesRatio = perResource("native-classes") / perResource("trivial");
    const classesMarginalRatio = marginal("native-classes") / marginal("trivial");
    const stateRatio = stateBytes["native-classes"]! / stateBytes.dynamic!;
    const yamlStateRatio = stateBytes["native-yaml"]! / stateBytes.dynamic!;
    const rows: Row[] = NAMES.map((name) => ({
      program: name,
      [`preview at ${SIZE} / ${SIZE} (ms)`]: round(perResource(name), 1),
      "marginal ms/resource": round(marginal(name), 1),
      "state bytes/resource": stateBytes[name] === undefined ? "-" : round(stateBytes[name]!, 0),
    }));
    rows.push({ program: "ratio native/trivial", [`preview at ${SIZE} / ${SIZE} (ms)`]: round(previewRatio), "marginal ms/resource": round(marginalRatio), "state bytes/resource": "-" });
    rows.push({ program: "ratio native-classes/trivial", [`preview at ${SIZE} / ${SIZE} (ms)`]: round(classesRatio), "marginal ms/resource": round(classesMarginalRatio), "state bytes/resource": "-" });
    rows.push({ program: "ratio native-yaml/trivial", [`preview at ${SIZE} / ${SIZE} (ms)`]: round(yamlRatio), "marginal ms/resource": round(yamlMarginalRatio), "state bytes/resource": "-" });
    rows.push({ program: "ratio native-classes/dynamic state", [`preview at ${SIZE} / ${SIZE} (ms)`]: "-", "marginal ms/resource": "-", "state bytes/resource": round(stateRatio) });
    rows.push({ program: "ratio native-yaml/dynamic state", [`preview at ${SIZE} / ${SIZE} (ms)`]: "-", "marginal ms/resource": "-", "state bytes/resource": round(yamlStateRatio) });
    publish("native-plugin", `Native plugin vs dynamic at ${SIZE} resources, marginal from ${SMALL} (targets <= ${TARGET})`, rows, {
      size: SIZE,
      small: SMALL,
      samples: SAMPLES,
      previewMs,
      stateBytes,
      previewRatio,
      marginalRatio,
      yamlRatio,
      yamlMarginalRatio,
      classesRatio,
      classesMarginalRatio,
      stateRatio,
      yamlStateRatio,
      target: TARGET,
    });
  });
});
