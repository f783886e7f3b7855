import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../test/harness/paths";
import { clusterformTarball, installWorkspace } from "../../test/harness/workspace";

/**
 * The workspace the benchmark programs run in: @pulumi/pulumi and the packed package, installed as
 * a user installs them. Its own folder, so a benchmark never reinstalls under a running e2e test.
 */
export function benchWorkspace(): string {
  return installWorkspace("bench", { clusterform: clusterformTarball() });
}

/** Copies the program `bench/programs/<program>` into a fresh folder of the workspace. */
export function copyBenchProgram(workspace: string, program: string): string {
  const source = path.join(repoRoot(), "bench", "programs", program);
  const dest = mkdtempSync(path.join(workspace, `${program}-`));
  for (const entry of readdirSync(source)) cpSync(path.join(source, entry), path.join(dest, entry), { recursive: true });
  return dest;
}
