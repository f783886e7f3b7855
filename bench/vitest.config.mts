import { defineConfig } from "vitest/config";

// Benchmarks drive the real engine against the local control plane, like the e2e tests, but
// report figures instead of asserting them: a benchmark fails only when it could not measure.
// Paths are relative to the repository root, where `npm run bench` runs.
export default defineConfig({
  test: {
    include: ["bench/**/*.run.ts"],
    globalSetup: ["test/harness/global-setup.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
    // Timings are the product here: one file at a time, nothing else competing for the 2 cores.
    fileParallelism: false,
  },
});
