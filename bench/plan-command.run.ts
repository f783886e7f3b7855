import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/harness/paths";
import { median, publish, round } from "./support/report";

/** Fresh processes per measurement, interleaved with the baseline so a slow spell hits both. CLUSTERFORM_BENCH_SAMPLES overrides it (a quick check that the bench works). */
const SAMPLES = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 7);
/** The bound: the command must not be what a CI waits for. */
const TARGET_MS = 1000;
const RESOURCES = 300;
/** What the command exits with on this preview: every third step replaces a pool, every pool scale-down removes nodes (docs/ci-plan.md). */
const DISRUPTIVE_EXIT = 3;

/** One `pulumi preview --json` step of a changed CycleCloud pool (a scale-down naming its nodes). */
function poolStep(i: number) {
  const urn = `urn:pulumi:ci::bench::pulumi-nodejs:dynamic/cyclecloud:NodePool::pool-${i}`;
  const inputs = { clusterName: `c${i}`, nodearray: "execute", owner: `o${i}`, resourceName: `pool-${i}`, count: 2 };
  const nodeNames = Array.from({ length: 10 }, (_, k) => `execute-${k + 1}`);
  return {
    op: "update",
    urn,
    oldState: { urn, type: "pulumi-nodejs:dynamic:Resource", id: `c${i}/execute/x`, inputs: { ...inputs, count: 10 }, outputs: { ...inputs, count: 10, nodeNames, coresPerNode: 2 } },
    newState: { urn, type: "pulumi-nodejs:dynamic:Resource", inputs: { ...inputs, __provider: 'exports.handler = () => require("clusterform/provider").dynamicProvider("cyclecloud:NodePool");' } },
    diffReasons: ["count"],
  };
}

/** One step of a Peloton job rolled to a new image. */
function jobStep(i: number) {
  const urn = `urn:pulumi:ci::bench::pulumi-nodejs:dynamic/peloton:StatelessJob::job-${i}`;
  const job = { respoolId: "rp", instanceCount: 40, updatePolicy: { batchSize: 2 }, owner: `o${i}`, resourceName: `job-${i}` };
  const spec = (image: string) => ({ containers: [{ name: "web", image }] });
  return {
    op: "update",
    urn,
    oldState: { urn, type: "pulumi-nodejs:dynamic/peloton:StatelessJob", id: `j${i}`, inputs: { ...job, defaultSpec: spec("a:1") }, outputs: { ...job, defaultSpec: spec("a:1") } },
    newState: { urn, type: "pulumi-nodejs:dynamic/peloton:StatelessJob", inputs: { ...job, defaultSpec: spec("a:2") } },
    diffReasons: ["defaultSpec"],
  };
}

/** One native plugin step: a cma-ssh pool whose new instance type gives it a new derived name (a create-first replacement). */
function nativePoolStep(i: number) {
  const type = "clusterform:cmassh:NodePool";
  const urn = `urn:pulumi:ci::bench::${type}::pool-${i}`;
  const pool = { clusterName: `c${i}`, count: 3 };
  return {
    op: "replace",
    urn,
    oldState: { urn, type, id: `c${i}/pool-${i}-1a2b3c4`, inputs: { ...pool, name: `pool-${i}-1a2b3c4`, instanceType: "standard" }, outputs: { ...pool, name: `pool-${i}-1a2b3c4`, instanceType: "standard" } },
    newState: { urn, type, inputs: { ...pool, name: `pool-${i}-5d6e7f8`, instanceType: "gpu" } },
    diffReasons: ["instanceType", "name"],
  };
}

/** One run of a command: its wall time, its CPU time (user + system), its exit code and what it printed. */
async function cpuMsOf(args: string[], out: string): Promise<{ wall: number; cpu: number; code: number; stdout: string }> {
  // The child's own CPU time, read by the shell's `times` after it exits; the shell exits with the child's code.
  const start = performance.now();
  const { stdout, code } = await new Promise<{ stdout: string; code: number }>((resolve, reject) => {
    execFile("bash", ["-c", `"$@" > "$OUT"; code=$?; times; exit $code`, "bash", ...args], { env: { ...process.env, OUT: out } }, (err, stdout) => {
      const status = (err as { code?: unknown } | null)?.code;
      if (err && typeof status !== "number") reject(err);
      else resolve({ stdout, code: typeof status === "number" ? status : 0 });
    });
  });
  const wall = performance.now() - start;
  // `times` prints the shell's own times, then its children's: the last line.
  const [user, sys] = (stdout.trim().split("\n").pop() ?? "").split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : 0;
  });
  return { wall, cpu: user + sys, code, stdout: readFileSync(out, "utf8") };
}

/** What each format prints when all 300 resources were planned: a fast failure must not be timed as a result. */
const PLANNED: Record<string, (stdout: string) => boolean> = {
  bare: () => true,
  text: (o) => o.includes(`${RESOURCES} resource(s) change,`),
  markdown: (o) => o.includes(`**${RESOURCES}** resource(s) change,`),
  json: (o) => (JSON.parse(o) as { summary: { changed: number } }).summary.changed === RESOURCES,
};

describe("clusterform plan on a 300-resource preview", () => {
  it("measures the command against a bare Node start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "plan-bench-"));
    try {
      const steps = Array.from({ length: RESOURCES }, (_, i) => [poolStep, jobStep, nativePoolStep][i % 3](i));
      const file = path.join(dir, "preview.json");
      writeFileSync(file, JSON.stringify({ steps, diagnostics: [], changeSummary: { update: RESOURCES } }));
      const cli = path.join(repoRoot(), "dist", "provider", "cli", "plan", "cli.js");
      const runs: Record<string, { wall: number[]; cpu: number[] }> = { bare: { wall: [], cpu: [] }, text: { wall: [], cpu: [] }, markdown: { wall: [], cpu: [] }, json: { wall: [], cpu: [] } };
      const out = path.join(dir, "out");
      for (let s = 0; s < SAMPLES; s++) {
        for (const [name, args] of Object.entries({ bare: ["node", "-e", ""], text: ["node", cli, "plan", file], markdown: ["node", cli, "plan", "-f", "markdown", file], json: ["node", cli, "plan", "-f", "json", file] })) {
          const { wall, cpu, code, stdout } = await cpuMsOf(args, out);
          // Every sample is checked: exit 3 (disruptive changes) and all 300 resources in the report.
          expect({ run: name, sample: s, code, planned: PLANNED[name](stdout) }).toEqual({ run: name, sample: s, code: name === "bare" ? 0 : DISRUPTIVE_EXIT, planned: true });
          runs[name].wall.push(wall);
          runs[name].cpu.push(cpu);
        }
      }
      const bareCpu = median(runs.bare.cpu);
      const rows = Object.entries(runs).map(([name, r]) => ({
        run: name,
        "wall ms (median)": round(median(r.wall), 0),
        "wall vs 1 s target": round(median(r.wall) / TARGET_MS, 2),
        "CPU ms (median)": round(median(r.cpu), 0),
        "CPU vs bare node": round(median(r.cpu) / bareCpu, 2),
      }));
      const worst = Math.max(...["text", "markdown", "json"].map((k) => median(runs[k].wall)));
      const ratio = round(worst / TARGET_MS, 2);
      const verdict = worst < TARGET_MS ? "meets" : "MISSES";
      publish("plan-command", `clusterform plan on ${RESOURCES} changed resources, median of ${SAMPLES}: slowest format ${round(worst, 0)} wall ms, ${ratio} of the ${TARGET_MS} ms target: ${verdict} it`, rows, {
        samples: SAMPLES,
        resources: RESOURCES,
        targetMs: TARGET_MS,
        slowestWallMs: round(worst, 0),
        slowestVsTarget: ratio,
        verdict,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
