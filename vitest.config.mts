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
          include: ["test/e2e/**/*.test.ts"],
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
    ],
  },
});
