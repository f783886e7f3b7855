import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TARGETS } from "../../tools/release/node-binaries";
import { buildExecutable, RELEASE_START_MODE, startModeFor } from "../../tools/release/sea/executable";
import { seaPrograms } from "../../tools/release/sea/programs";
import { changingSteps, openStack } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { repoRoot, workDir } from "../harness/paths";
import { applyArgs, openTofuDir, planArgs } from "../harness/tofu";
import { packageWorkspace } from "../harness/workspace";

/**
 * The release's linux_arm64 executables, run. Built as `npm run release` builds them
 * (tools/release/sea/executable.ts: the startup snapshot made by the arm64 Node itself, under the
 * same emulator), then run on this amd64 machine under user-mode QEMU with Debian's arm64 runtime
 * libraries (scripts/setup/qemu-arm64.sh; on an arm64 machine, as they are):
 * OpenTofu applies examples/hcl/cmassh with the arm64 provider, plans nothing more and destroys;
 * Pulumi runs a YAML program on the arm64 plugin, scales a pool in place, previews nothing more
 * and destroys.
 */

/** ELF's e_machine of AArch64, at byte 18 of the header. */
const EM_AARCH64 = 0xb7;

function arm64Runner(): string {
  const runner = process.env.CLUSTERFORM_ARM64_RUNNER;
  if (runner === undefined) {
    throw new Error("CLUSTERFORM_ARM64_RUNNER is not set: run the tests through scripts/test.sh or after `. scripts/setup.sh`, whose qemu-arm64 step installs user-mode QEMU");
  }
  return runner;
}

const ops = (r: Parameters<typeof changingSteps>[0]) => changingSteps(r).map((s) => `${s.op} ${s.name}`).sort();

describe("the release's linux_arm64 executables run: OpenTofu and Pulumi YAML on them, under user-mode QEMU on amd64", () => {
  const target = TARGETS.find((t) => t.os === "linux" && t.arch === "arm64")!;
  /** A folder holding both engines' executable names, each a script that runs the arm64 executable. */
  let bin: string;
  const executables: Record<string, string> = {};
  let plane: LocalPlane;

  beforeAll(async () => {
    const runner = arm64Runner();
    const root = path.join(workDir(), "release-arm64");
    bin = path.join(root, "bin");
    mkdirSync(bin, { recursive: true });
    // Where the arm64 Node runs (emulated here), the release's own start mode: a startup snapshot.
    expect(startModeFor(target, RELEASE_START_MODE)).toBe(RELEASE_START_MODE);
    for (const program of seaPrograms()) {
      const built = await buildExecutable({ root: repoRoot(), program, target, mode: RELEASE_START_MODE, work: path.join(root, program.name) });
      executables[program.name] = built;
      const script = path.join(bin, program.name);
      writeFileSync(script, `#!/bin/sh\nexec ${runner} ${built} "$@"\n`);
      chmodSync(script, 0o755);
    }
    plane = await startLocalPlane({ workspace: packageWorkspace(), timeScale: 0.05 });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("builds both engines' executables for AArch64 Linux", () => {
    for (const file of Object.values(executables)) {
      const header = readFileSync(file).subarray(0, 20);
      expect(header.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
      expect(header.readUInt16LE(18)).toBe(EM_AARCH64);
    }
    expect(Object.keys(executables).sort()).toEqual(["pulumi-resource-clusterform", "terraform-provider-clusterform"]);
  });

  it("OpenTofu: applies examples/hcl/cmassh with the arm64 provider, plans nothing more and destroys", async () => {
    // dev_overrides points tofu at the folder of the arm64 executable's script.
    const dir = openTofuDir("release-arm64", { example: "cmassh", providerDir: bin, endpoint: plane.url });
    await dir.ok(applyArgs());
    expect((await plane.cmasshClusters()).map((c) => c.name)).toEqual(["analytics"]);
    const plan = await dir.run(planArgs({}, ["-detailed-exitcode"]));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    await dir.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]);
    expect(await plane.cmasshClusters()).toEqual([]);
  });

  it("Pulumi: runs a YAML program on the arm64 plugin, scales a pool in place, previews nothing more and destroys", async () => {
    const program = mkdtempSync(path.join(workDir(), "release-arm64-yaml-"));
    // The plugin from the folder of the arm64 executable's script (Pulumi YAML's `plugins:` block).
    const yaml = `name: release-arm64
runtime: yaml
plugins:
  providers:
    - name: clusterform
      path: ${bin}
config:
  poolCount:
    type: integer
    default: 1
resources:
  cluster:
    type: clusterform:cmassh:Cluster
    properties:
      name: arm64-yaml
      kubernetesVersion: 1.31.6
      controlPlane:
        instanceType: standard
        count: 1
  pool:
    type: clusterform:cmassh:NodePool
    properties:
      clusterName: \${cluster.name}
      instanceType: standard
      count: \${poolCount}
`;
    writeFileSync(path.join(program, "Pulumi.yaml"), yaml);
    const stack = await openStack({ programDir: program, config: { "clusterform:endpoint": { value: plane.url } } });
    expect(ops(await stack.up())).toEqual(["create cluster", "create pool"]);
    expect((await plane.cmasshClusters()).map((c) => c.name)).toEqual(["arm64-yaml"]);
    await stack.configure({ poolCount: { value: "2" } });
    expect(ops(await stack.up())).toEqual(["update pool"]);
    expect(ops(await stack.preview())).toEqual([]);
    expect(ops(await stack.destroy())).toEqual(["delete cluster", "delete pool"]);
    expect(await plane.cmasshClusters()).toEqual([]);
  });
});
