import { execFileSync } from "node:child_process";
import { packPackage } from "./workspace";
import { repoRoot } from "./paths";

/**
 * Runs once before the end-to-end tests: builds the package and packs it, so every program
 * installs the code under test exactly as users would install a release.
 */
export default function setup(): void {
  // scripts/test.sh has just built; a direct `vitest run` must not test a stale build.
  if (process.env.CLUSTERFORM_BUILT !== "1") {
    execFileSync("npm", ["run", "--silent", "build"], { cwd: repoRoot(), stdio: "inherit" });
  }
  packPackage(repoRoot(), "clusterform");
}
