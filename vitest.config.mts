import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Two workers on the 2-core machines this is built for; CLUSTERFORM_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.CLUSTERFORM_TEST_WORKERS ?? 2),
    projects: [
      {
        test: {
          name: "unit",
          include: ["common/**/*.test.ts", "provider/**/*.test.ts", "emulator/**/*.test.ts", "sdk/**/*.test.ts", "test/unit/**/*.test.ts"],
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
          // Files run two at a time: a file spends part of its time waiting for the local control
          // plane's operations, when the other file's engine runs can use the cores.
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
          // Scenarios run side by side, three at a time, and the two files one after the other: one
          // engine and one conductor serve them all (more at once made the real Senlin answer 500s).
          maxConcurrency: 3,
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
