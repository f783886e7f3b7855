import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test/harness/paths";
import { median, publish, round } from "./support/report";

const execFileAsync = promisify(execFile);

/** Fresh processes per measurement, interleaved with the baseline so a slow spell hits both. */
const SAMPLES = 7;
/** The bound: the command must not be what a CI waits for. */
const TARGET_MS = 1000;
const RESOURCES = 300;

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

async function cpuMsOf(args: string[]): Promise<{ wall: number; cpu: number }> {
  // The child's own CPU time (user + system), read by the shell's `times` after it exits.
  const start = performance.now();
  const { stdout } = await execFileAsync("bash", ["-c", `"$@" > /dev/null; times`, "bash", ...args]);
  const wall = performance.now() - start;
  // `times` prints the shell's own times, then its children's: the last line.
  const [user, sys] = (stdout.trim().split("\n").pop() ?? "").split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : 0;
  });
  return { wall, cpu: user + sys };
}

describe("clusterform plan on a 300-resource preview", () => {
  it("measures the command against a bare Node start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "plan-bench-"));
    try {
      const steps = Array.from({ length: RESOURCES }, (_, i) => (i % 2 === 0 ? poolStep(i) : jobStep(i)));
      const file = path.join(dir, "preview.json");
      writeFileSync(file, JSON.stringify({ steps, diagnostics: [], changeSummary: { update: RESOURCES } }));
      const cli = path.join(repoRoot(), "dist", "provider", "plan", "cli.js");
      const runs: Record<string, { wall: number[]; cpu: number[] }> = { bare: { wall: [], cpu: [] }, text: { wall: [], cpu: [] }, markdown: { wall: [], cpu: [] }, json: { wall: [], cpu: [] } };
      for (let s = 0; s < SAMPLES; s++) {
        for (const [name, args] of Object.entries({ bare: ["node", "-e", ""], text: ["node", cli, "plan", file], markdown: ["node", cli, "plan", "-f", "markdown", file], json: ["node", cli, "plan", "-f", "json", file] })) {
          const { wall, cpu } = await cpuMsOf(args);
          runs[name].wall.push(wall);
          runs[name].cpu.push(cpu);
        }
      }
      const bareCpu = median(runs.bare.cpu);
      const rows = Object.entries(runs).map(([name, r]) => ({ run: name, "wall ms (median)": round(median(r.wall), 0), "CPU ms (median)": round(median(r.cpu), 0), "CPU vs bare node": round(median(r.cpu) / bareCpu, 2) }));
      const worst = Math.max(...["text", "markdown", "json"].map((k) => median(runs[k].wall)));
      publish("plan-command", `clusterform plan on ${RESOURCES} changed resources, median of ${SAMPLES}: slowest format ${round(worst, 0)} wall ms (target < ${TARGET_MS}: ${worst < TARGET_MS ? "meets" : "MISSES"})`, rows, { samples: SAMPLES, resources: RESOURCES });
      expect(runs.text.wall).toHaveLength(SAMPLES);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
