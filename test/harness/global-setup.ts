import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { TestProject } from "vitest/node";
import { processesMarked } from "./processes";
import { repoRoot } from "./paths";
import { packPackage } from "./workspace";

declare module "vitest" {
  export interface ProvidedContext {
    /** Marks every process the tests start (`CLUSTERFORM_TEST_RUN=<id>` in its environment). */
    testRun: string;
  }
}

/** How long processes may take to exit after the last test before they count as left behind. */
const GRACE_MS = 10_000;

/**
 * Runs once before the end-to-end tests: builds the package and packs it, so every program
 * installs the code under test exactly as users would install a release. Afterwards it checks
 * that no process the tests started (CLI, language host, provider, local control plane) is left.
 */
export default function setup(project: TestProject): () => Promise<void> {
  // Once per run, however many projects use this setup (e2e, senlin-real): vitest calls each
  // project's global setups in this one process.
  const run = globalThis as { clusterformPacked?: boolean };
  if (!run.clusterformPacked) {
    // scripts/test.sh has just built (its set-up does); a direct `vitest run` must not test a stale build.
    if (process.env.CLUSTERFORM_BUILT !== "1") {
      execFileSync("npm", ["run", "--silent", "build"], { cwd: repoRoot(), stdio: "inherit" });
    }
    packPackage(repoRoot(), "clusterform");
    run.clusterformPacked = true;
  }
  const marker = `CLUSTERFORM_TEST_RUN=${randomUUID()}`;
  project.provide("testRun", marker);
  return async () => {
    const deadline = Date.now() + GRACE_MS;
    let left = processesMarked(marker);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = processesMarked(marker);
    }
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    throw new Error(`the end-to-end tests left ${left.length} process(es) behind: ${left.map((p) => `${p.pid} ${p.cmdline}`).join("; ")}`);
  };
}
