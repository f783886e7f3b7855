import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../harness/paths";

/** The steps `scripts/setup.sh --steps` prints for a profile (none run). */
function steps(profile?: string) {
  const env = { ...process.env };
  delete env.CLUSTERFORM_SETUP_PROFILE;
  if (profile) env.CLUSTERFORM_SETUP_PROFILE = profile;
  return spawnSync("bash", [path.join(repoRoot(), "scripts", "setup.sh"), "--steps"], { env, encoding: "utf8" });
}

describe("scripts/setup.sh profiles", () => {
  it("sets up for the demo only Node, the package and the Pulumi CLI", () => {
    expect(steps("demo").stdout.trim()).toBe("node deps pulumi");
  });

  it("sets up for the tests every tool, the Python language host, the browser and the real Senlin among them, the test profile being the default", () => {
    const all = "node deps pulumi go-clients languages python opentofu kubernetes openstack openstack-pypi chromium senlin-real kubernetes-plugin qemu-arm64";
    expect(steps("test").stdout.trim()).toBe(all);
    expect(steps().stdout.trim()).toBe(all);
  });

  it("sets up for a release only Node, the package and the arm64 emulator that makes the linux_arm64 startup snapshots (the release fetches its Node binaries and Python build tools itself)", () => {
    expect(steps("release").stdout.trim()).toBe("node deps qemu-arm64");
  });

  it("refuses an unknown profile, naming the known ones", () => {
    const result = steps("everything");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("unknown set-up profile 'everything'");
    expect(result.stderr).toContain("set CLUSTERFORM_SETUP_PROFILE to demo, test or release");
  });

  it("runs the demo with the demo profile unless told otherwise", () => {
    const demo = readFileSync(path.join(repoRoot(), "scripts", "demo.sh"), "utf8");
    const profileLine = demo.search(/^export CLUSTERFORM_SETUP_PROFILE=.*:-demo\}"$/m);
    expect(profileLine).toBeGreaterThan(0);
    expect(profileLine).toBeLessThan(demo.indexOf(". scripts/setup.sh"));
  });
});
