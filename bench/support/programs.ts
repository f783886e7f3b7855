import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
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

/**
 * A YAML program of `count` independent cma-ssh clusters, the resources of
 * bench/programs/native-clusters-ts. Pulumi YAML has no loops: every resource is written out.
 */
export function yamlClustersProgram(workspace: string, count: number): string {
  const dir = mkdtempSync(path.join(workspace, `yaml-clusters-${count}-`));
  const resources = Array.from({ length: count }, (_, i) =>
    [`  c-${i}:`, "    type: clusterform:cmassh:Cluster", "    properties:", "      kubernetesVersion: 1.31.6", "      controlPlane:", "        instanceType: standard", "        count: 1"].join("\n"),
  );
  const text = [
    "name: bench-yaml-clusters",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: clusterform",
    "      path: ../node_modules/clusterform/plugin",
    `resources:\n${resources.join("\n")}`,
    "",
  ].join("\n");
  writeFileSync(path.join(dir, "Pulumi.yaml"), text);
  return dir;
}
