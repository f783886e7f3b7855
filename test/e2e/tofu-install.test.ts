import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyArgs, planArgs, type TofuDir } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";

/**
 * Installing the provider from the packed package without a registry, as docs/opentofu.md says: the
 * package writes a filesystem mirror, `tofu init` installs from it offline, and the lock file's
 * hash covers the code that runs.
 */
describe("terraform-provider-clusterform installed from a filesystem mirror the package writes", () => {
  let t: TofuPlane;
  let dir: TofuDir;
  let cliConfig: string;
  beforeAll(async () => {
    t = await openTofuPlane();
    dir = t.open("cmassh", "install-mirror");
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("writes the mirror and prints the CLI configuration that installs from it", () => {
    const mirror = path.join(dir.dir, "mirror");
    const bin = path.join(t.workspace, "node_modules", ".bin", "clusterform-tofu-mirror");
    cliConfig = execFileSync(bin, [mirror], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(cliConfig).toContain(`path    = ${JSON.stringify(mirror)}`);
    const version = JSON.parse(readFileSync(path.join(t.workspace, "node_modules", "clusterform", "package.json"), "utf8")).version;
    const shim = path.join(mirror, "registry.opentofu.org", "clusterform", "clusterform", version, "linux_amd64", `terraform-provider-clusterform_v${version}`);
    expect(existsSync(shim)).toBe(true);
    // Dev overrides off: tofu must install the provider, not run it from the package.
    writeFileSync(dir.env.TF_CLI_CONFIG_FILE, cliConfig);
  });

  it("runs tofu init offline, records the provider's hash, and applies", async () => {
    const init = await dir.ok(["init", "-input=false", "-no-color"]);
    expect(init.stdout).toMatch(/Installed clusterform\/clusterform v\S+ \(unauthenticated\)/);
    const lock = readFileSync(path.join(dir.dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toMatch(/provider "registry\.opentofu\.org\/clusterform\/clusterform"/);
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);
    await dir.ok(applyArgs());
    expect((await t.plane.cmasshClusters()).map((c) => c.name)).toEqual(["analytics"]);
  });

  it("refuses to run provider code that the lock file's hash does not cover", async () => {
    const installed = path.join(dir.dir, ".terraform", "providers", "registry.opentofu.org", "clusterform", "clusterform");
    const [version] = readdirSync(installed);
    const main = path.join(installed, version, "linux_amd64", "lib", "dist", "provider", "engines", "terraform", "bundle.cjs");
    appendFileSync(main, "\n// changed after init\n");
    const plan = await dir.run(planArgs());
    expect(plan.code).toBe(1);
    expect(plan.stderr.replace(/\s+/g, " ")).toMatch(/does not match any of the checksums recorded in the dependency lock file/);
  });
});
