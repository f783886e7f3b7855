import { readFileSync } from "node:fs";
import * as path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Orders the test files longest first, by the durations a full run measured (test/durations.json,
 * refreshed on purpose with `npm run durations:refresh`), across all projects: a fresh clone has no
 * vitest cache, and vitest's fallback (larger files first) put the three matrix files, a few lines
 * and four and a half minutes each, last, so the run ended on them with a worker idle. Files the
 * table does not know run first, as vitest runs them.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let seconds: Record<string, number> = {};
    try {
      seconds = JSON.parse(readFileSync(path.join(this.ctx.config.root, "test", "durations.json"), "utf8"));
    } catch {
      // No table: every file is unknown, and the order is the listing's.
    }
    const known = (spec: TestSpecification) => seconds[path.relative(this.ctx.config.root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => known(b) - known(a));
  }
}

/** The unit files that must not share a module registry (see the unit-isolated project). */
const ISOLATED_UNITS = ["provider/engines/**/*.test.ts", "provider/kinds/**/*.test.ts"];

export default defineConfig({
  test: {
    // Five workers on the 2-core machines this is built for (CLUSTERFORM_TEST_WORKERS overrides
    // it): a file spends part of its time waiting for the local control plane's operations and the
    // platform's faults, and more files at once fill those waits. Cores busy 68% of a run with two
    // workers, 79% with three, 85% with four (docs/testing.md).
    maxWorkers: Number(process.env.CLUSTERFORM_TEST_WORKERS ?? 5),
    // The longest files first, by the durations of a full run (test/durations.json).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          // The unit files that share no state through modules: the files of a worker share one
          // module registry instead of each loading vitest and the modules anew. Most run in
          // milliseconds, and the loading cost more CPU than the tests (the unit files took 214 CPU-s
          // isolated, 126 shared).
          name: "unit",
          include: ["common/**/*.test.ts", "provider/**/*.test.ts", "emulator/**/*.test.ts", "sdk/**/*.test.ts", "test/unit/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ISOLATED_UNITS],
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The engine adapters and the kinds: each file in its own module registry. They replace
          // modules (vi.mock), cancel the process-wide engine context and close the per-endpoint
          // client cache's channels, which a later file in the same registry would inherit.
          name: "unit-isolated",
          include: ISOLATED_UNITS,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          // test/e2e-kubernetes: the examples with @pulumi/kubernetes (the set-up builds its plugin);
          // test/console: the web console in headless Chromium, reading a real `pulumi up`.
          include: ["test/e2e/**/*.test.ts", "test/e2e-kubernetes/**/*.test.ts", "test/console/**/*.test.ts"],
          globalSetup: ["test/harness/global-setup.ts"],
          // The operations plan of a step reads every kind's planner: loaded once per file.
          setupFiles: ["test/harness/load-kinds.ts"],
          // Real engine runs: each `pulumi up` takes seconds, a lifecycle file takes minutes.
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          // The same Senlin scenarios against the real Senlin 14 and the local plane, and the
          // provider's Senlin resources through the engine against the real one: one real Senlin
          // (Keystone, RabbitMQ, MariaDB, four daemons) started once for the files of this project.
          name: "senlin-real",
          include: ["test/senlin-real/**/*.test.ts"],
          globalSetup: ["test/harness/global-setup.ts", "test/senlin-real/global-setup.ts"],
          // Scenarios run side by side, three at a time, and the parity scenarios and the provider's
          // steps one after the other, in one file (real-senlin.test.ts): one engine and one
          // conductor serve them all (more at once made the real Senlin answer 500s). The file runs
          // beside the other projects' files.
          maxConcurrency: 3,
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
