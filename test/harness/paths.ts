import * as path from "node:path";

/** The repository root. */
export function repoRoot(): string {
  return path.resolve(__dirname, "..", "..");
}

/** Git-ignored scratch space for test runs (program installs, engine homes, emulator data). */
export function workDir(): string {
  return process.env.CLUSTERFORM_WORK_DIR ?? path.join(repoRoot(), ".work");
}
