import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["provider/**/*.test.ts", "emulator/**/*.test.ts", "sdk/**/*.test.ts", "test/unit/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/harness/global-setup.ts"],
          // Real engine runs: each `pulumi up` takes seconds, a lifecycle file takes minutes.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // The engine runs use both cores; running files in parallel only adds contention.
          fileParallelism: false,
        },
      },
    ],
  },
});
