import { defineConfig } from "vitest/config";

// The examples with @pulumi/kubernetes need the plugin pulumi-resource-kubernetes, which the set-up
// builds only with CLUSTERFORM_KUBERNETES_PLUGIN=1 (45+ minutes cold on 2 cores): so this file is not
// part of the test command. Run it with
//   CLUSTERFORM_KUBERNETES_PLUGIN=1 . scripts/setup.sh && npx vitest run --config test/e2e-kubernetes/vitest.config.mts
export default defineConfig({
  test: {
    include: ["test/e2e-kubernetes/**/*.test.ts"],
    globalSetup: ["test/harness/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
