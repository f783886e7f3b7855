"use strict";
// Run by bench/module-load.run.ts in a fresh Node process whose working directory is the bench
// workspace (the packed package installed as users install it). Prints one JSON line: the
// wall-clock and CPU milliseconds of each step and the package files the process loaded. CPU time
// (user + system of this process) is what a step costs on an idle core: on a busy machine the wall
// time also holds the time spent waiting for one.
//   node module-load-probe.js pulumi           require("@pulumi/pulumi") alone: the baseline
//   node module-load-probe.js sdk              require("clusterform"), as a program does
//   node module-load-probe.js provider <type>  require("clusterform/provider") + the type's first call
//   node module-load-probe.js host <type>      the same after @pulumi/pulumi, as in Pulumi's provider host
const path = require("node:path");
const { performance } = require("node:perf_hooks");

const [mode, type] = process.argv.slice(2);
const ms = {};
const cpuMs = {};
async function timed(label, fn) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  ms[label] = performance.now() - start;
  cpuMs[label] = (used.user + used.system) / 1000;
  return value;
}

async function main() {
  if (mode === "pulumi" || mode === "host") await timed("pulumi", () => require("@pulumi/pulumi"));
  if (mode === "sdk") await timed("sdk", () => require("clusterform"));
  if (mode === "provider" || mode === "host") {
    const entry = await timed("require", () => require("clusterform/provider"));
    // What the host does first with a provider: configure, which loads the type's handler.
    await timed("firstCall", () => entry.dynamicProvider(type).configure({ config: { get: () => undefined } }));
  }
  const root = path.dirname(require.resolve("clusterform/package.json"));
  const loaded = Object.keys(require.cache)
    .filter((file) => file.startsWith(root + path.sep))
    .map((file) => path.relative(root, file));
  process.stdout.write(`${JSON.stringify({ ms, cpuMs, loaded, sinceStartMs: performance.now() })}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
