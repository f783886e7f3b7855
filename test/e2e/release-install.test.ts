import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginTarballName } from "../../tools/release/pulumi";
import { tfNames } from "../../tools/release/terraform";
import { changingSteps, engineEnv, type EngineStack, openStack, pulumiBinDir } from "../harness/engine";
import { type FileHost, serveFiles } from "../harness/https-files";
import { repoRoot, workDir } from "../harness/paths";
import { makeVenv } from "../harness/python";
import { hostPlatform, type TestRelease, testRelease, toolsWithoutNode } from "../harness/release";
import { assembleFromAssets } from "../harness/release-assets";
import { applyArgs, planArgs, type TofuDir, tofuBin } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";
import { SENLIN_USER } from "../harness/senlin-stack";
import { installWorkspace } from "../harness/workspace";

/**
 * Clusterform installed the way users install a provider, from a release as its GitHub release
 * publishes it (the assets in one folder, the registry, mirror and module proxy archives unpacked
 * beside them), served over HTTPS by a test CA: OpenTofu resolves `clusterform/clusterform`
 * through a registry host and through a network mirror, checking the signature and the hashes;
 * `pulumi plugin install --server` installs the plugin, and YAML, Go, TypeScript and Python programs
 * run on it. The engines run with a fresh HOME and a PATH without Node: the executables need none.
 */

const execFileAsync = promisify(execFile);
/** Runs a command without blocking this process (the release's HTTPS server answers from it); its stdout. */
async function run(command: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<string> {
  try {
    return (await execFileAsync(command, args, { ...opts, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

const ops = (r: Parameters<typeof changingSteps>[0]) => changingSteps(r).map((s) => `${s.op} ${s.name}`).sort();
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("a release installed as users install it: tofu init from a registry host, pulumi plugin install from a server, programs in four languages", () => {
  let release: TestRelease;
  /** The folder served: the release's assets as downloaded, its folders' archives unpacked there. */
  let served: string;
  let host: FileHost;
  let t: TofuPlane;
  let home: string;
  let tools: string;
  const platform = hostPlatform();
  const [os, arch] = platform.split("_");

  beforeAll(async () => {
    release = await testRelease();
    t = await openTofuPlane();
    home = mkdtempSync(path.join(workDir(), "release-home-"));
    served = path.join(home, "published");
    const assets = [...release.summary.assets, "release.json"].map((f) => path.join(release.dir, f));
    expect(assembleFromAssets(assets, served, release.version)).toEqual(Object.keys(release.summary.trees));
    host = await serveFiles(served);
    tools = toolsWithoutNode(path.join(home, "tools"), { tofu: tofuBin() });
  });
  afterAll(async () => {
    await host?.close();
    await t?.plane.stop();
  });

  /** A tofu working directory of examples/hcl/cmassh whose CLI configuration is `cliConfig`, run as a user without Node would. */
  const tofuDir = (name: string, cliConfig: string): TofuDir => {
    const dir = t.open("cmassh", name);
    writeFileSync(dir.env.TF_CLI_CONFIG_FILE, cliConfig);
    Object.assign(dir.env, { HOME: home, PATH: tools, SSL_CERT_FILE: host.caBundle });
    return dir;
  };
  const registryConfig = () => `host "registry.opentofu.org" {\n  services = {\n    "providers.v1" = "${host.url}registry/v1/providers/"\n  }\n}\n`;
  const zipName = () => tfNames.zip(release.version, { os: os as never, arch: arch as never });

  it("gives the engines a PATH without Node", () => {
    const found = spawnSync("sh", ["-c", "command -v node"], { env: { PATH: tools } });
    expect(found.status).not.toBe(0);
    expect(existsSync(path.join(tools, "tofu"))).toBe(true);
  });

  describe("OpenTofu", () => {
    let dir: TofuDir;
    beforeAll(() => {
      dir = tofuDir("release-registry", registryConfig());
    });

    it("resolves clusterform/clusterform through a registry host over TLS, checks the signature and the zip's hash, and locks both hashes", async () => {
      const init = await dir.ok(["init", "-input=false", "-no-color"]);
      const download = JSON.parse(readFileSync(path.join(served, "registry", "v1", "providers", "clusterform", "clusterform", release.version, "download", os, arch), "utf8"));
      expect(init.stdout).toContain(`Installed clusterform/clusterform v${release.version} (signed, key ID ${download.signing_keys.gpg_public_keys[0].key_id})`);
      for (const file of [zipName(), tfNames.sums(release.version), `${tfNames.sums(release.version)}.sig`]) expect(host.requests).toContain(file);
      const lock = readFileSync(path.join(dir.dir, ".terraform.lock.hcl"), "utf8");
      expect(lock).toContain(`"zh:${sha256(path.join(served, zipName()))}"`);
      expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);
      // What tofu runs is the release's executable, unpacked from the zip.
      const installed = path.join(dir.dir, ".terraform", "providers", "registry.opentofu.org", "clusterform", "clusterform", release.version, platform, tfNames.binary(release.version, { os: os as never }));
      expect(statSync(installed).size).toBeGreaterThan(30_000_000);
    });

    it("plans, applies, plans nothing more and destroys examples/hcl/cmassh with the installed executable", async () => {
      await dir.ok(applyArgs());
      expect((await t.plane.cmasshClusters()).map((c) => c.name)).toEqual(["analytics"]);
      const plan = await dir.run(planArgs({}, ["-detailed-exitcode"]));
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      await dir.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]);
      expect(await t.plane.cmasshClusters()).toEqual([]);
    });

    it("refuses a tampered zip, and a checksum file whose signature does not verify", async () => {
      host.tamper(zipName());
      try {
        const zip = await tofuDir("release-tampered-zip", registryConfig()).run(["init", "-input=false", "-no-color"]);
        expect(zip.code).toBe(1);
        expect(zip.stderr.replace(/\s+/g, " ")).toMatch(/checksum|does not match/i);
        host.tamper(`${tfNames.sums(release.version)}.sig`);
        const sums = await tofuDir("release-tampered-signature", registryConfig()).run(["init", "-input=false", "-no-color"]);
        expect(sums.code).toBe(1);
        expect(sums.stderr.replace(/\s+/g, " ")).toMatch(/signature|authentication/i);
      } finally {
        host.tamper(undefined);
      }
    });

    it("installs from the release's network mirror as well, with the hashes the mirror lists", async () => {
      const mirror = tofuDir("release-mirror", `provider_installation {\n  network_mirror {\n    url = "${host.url}mirror/"\n  }\n}\n`);
      await mirror.ok(["init", "-input=false", "-no-color"]);
      const listed = JSON.parse(readFileSync(path.join(served, "mirror", "registry.opentofu.org", "clusterform", "clusterform", `${release.version}.json`), "utf8"));
      const lock = readFileSync(path.join(mirror.dir, ".terraform.lock.hcl"), "utf8");
      for (const hash of listed.archives[platform].hashes) expect(lock).toContain(`"${hash}"`);
    });
  });

  describe("Pulumi", () => {
    let pulumiTools: string;
    let config: Record<string, { value: string; secret?: boolean }>;
    beforeAll(() => {
      const bin = pulumiBinDir();
      const links: Record<string, string> = {};
      for (const name of ["pulumi", "pulumi-language-yaml", "pulumi-language-go", "pulumi-language-python", "pulumi-language-python-exec"]) links[name] = path.join(bin, name);
      pulumiTools = toolsWithoutNode(path.join(home, "pulumi-tools"), links);
      config = { "clusterform:endpoint": { value: t.plane.url } };
    });
    const engineSide = (extra: string[] = []) => ({ PATH: [pulumiTools, ...extra].join(path.delimiter), HOME: home, SSL_CERT_FILE: host.caBundle });

    it("installs the plugin with `pulumi plugin install resource clusterform <version> --server <release URL>`", async () => {
      const pulumiHome = engineEnv().PULUMI_HOME;
      const env = { ...engineEnv(), ...engineSide() };
      // Not execFileSync: the release's server answers from this very process.
      await run(path.join(pulumiTools, "pulumi"), ["plugin", "install", "resource", "clusterform", release.version, "--server", host.url], { env });
      expect(host.requests).toContain(pluginTarballName(release.version, { os: os as never, arch: arch as never }));
      const listed = JSON.parse(await run(path.join(pulumiTools, "pulumi"), ["plugin", "ls", "--json"], { env })) as { name: string; kind: string; version: string }[];
      expect(listed.map((p) => `${p.kind} ${p.name} ${p.version}`)).toContain(`resource clusterform ${release.version}`);
      const installed = path.join(pulumiHome, "plugins", `resource-clusterform-v${release.version}`, "pulumi-resource-clusterform");
      expect(readFileSync(installed).subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    });

    /** up, a preview planning nothing, destroy: the plane holds the object between. */
    const lifecycle = async (stack: EngineStack, created: string[]) => {
      expect(ops(await stack.up())).toEqual(created.map((n) => `create ${n}`));
      expect(ops(await stack.preview())).toEqual([]);
      expect(ops(await stack.destroy())).toEqual(created.map((n) => `delete ${n}`));
    };

    it("runs a YAML program on the installed plugin", async () => {
      const dir = mkdtempSync(path.join(home, "yaml-"));
      writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        "name: release-yaml\nruntime: yaml\nresources:\n  cluster:\n    type: clusterform:cmassh:Cluster\n    properties:\n      name: from-yaml\n      kubernetesVersion: 1.31.6\n      controlPlane:\n        instanceType: standard\n        count: 1\n",
      );
      const stack = await openStack({ programDir: dir, config, env: engineSide() });
      expect(ops(await stack.up())).toEqual(["create cluster"]);
      expect((await t.plane.cmasshClusters()).map((c) => c.name)).toEqual(["from-yaml"]);
      expect(ops(await stack.preview())).toEqual([]);
      expect(ops(await stack.destroy())).toEqual(["delete cluster"]);
    });

    it("runs a Go program on the release's Go module (fetched from the release's module proxy layout, served or as a file:// proxy, used through a replace)", async () => {
      const cache = process.env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform");
      const module = "github.com/clusterform/clusterform/sdk/go";
      // As `go get` would: the module from the release's proxy layout, verified, into a fresh cache.
      const fresh = mkdtempSync(path.join(home, "gomod-"));
      const downloaded = JSON.parse(
        await run("go", ["mod", "download", "-json", `${module}@v${release.version}`], {
          cwd: home,
          env: { ...process.env, GOMODCACHE: fresh, GOPROXY: `${host.url}goproxy`, GONOSUMDB: "github.com/clusterform", GOFLAGS: "-modcacherw", SSL_CERT_FILE: host.caBundle },
        }),
      ) as { Dir: string; GoMod: string; Sum: string };
      expect(readFileSync(downloaded.GoMod, "utf8")).toContain(`module ${module}`);
      // The same module from the unpacked goproxy/ folder as a file:// proxy, with no server.
      const fromFiles = JSON.parse(
        await run("go", ["mod", "download", "-json", `${module}@v${release.version}`], {
          cwd: home,
          env: { ...process.env, GOMODCACHE: mkdtempSync(path.join(home, "gomod-")), GOPROXY: `file://${path.join(served, "goproxy")}`, GONOSUMDB: "github.com/clusterform", GOFLAGS: "-modcacherw" },
        }),
      ) as { Sum: string };
      expect(fromFiles.Sum).toBe(downloaded.Sum);
      const dir = mkdtempSync(path.join(home, "go-"));
      copyFileSync(path.join(repoRoot(), "examples", "go", "go.mod"), path.join(dir, "go.mod"));
      copyFileSync(path.join(repoRoot(), "examples", "go", "go.sum"), path.join(dir, "go.sum"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: release-go\nruntime: go\n");
      writeFileSync(
        path.join(dir, "main.go"),
        `package main

import (
	"github.com/clusterform/clusterform/sdk/go/clusterform/vcluster"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := vcluster.NewVCluster(ctx, "vc", &vcluster.VClusterArgs{Namespace: pulumi.String("release"), KubernetesVersion: pulumi.String("1.30.2")})
		return err
	})
}
`,
      );
      const goEnv = {
        GOMODCACHE: path.join(cache, "go", "mod"),
        GOCACHE: path.join(cache, "go", "build"),
        GOFLAGS: "-modcacherw -mod=mod -buildvcs=false",
        GOTOOLCHAIN: "local",
        GOPROXY: "off",
        CGO_ENABLED: "0",
      };
      execFileSync("go", ["mod", "edit", `-replace=${module}=${downloaded.Dir}`], { cwd: dir, env: { ...process.env, ...goEnv } });
      const goBin = path.dirname(execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim());
      const stack = await openStack({ programDir: dir, config, env: { ...engineSide([goBin]), ...goEnv } });
      await lifecycle(stack, ["vc"]);
    });

    it("runs a TypeScript program on the release's npm package (clusterform/native)", async () => {
      const tarball = path.join(release.dir, `clusterform-${release.version}.tgz`);
      const workspace = installWorkspace("release-ts", { clusterform: tarball });
      const dir = mkdtempSync(path.join(workspace, "program-"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: release-ts\nruntime: nodejs\n");
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "release-ts", private: true, main: "index.ts" }));
      writeFileSync(
        path.join(dir, "index.ts"),
        'import { peloton } from "clusterform/native";\n\nnew peloton.ResourcePool("respool", {\n  resources: [{ kind: "cpu", reservation: 1, limit: 10 }],\n});\n',
      );
      // The program needs Node; the plugin it talks to is still the installed executable.
      const node = path.dirname(process.execPath);
      const stack = await openStack({ programDir: dir, config, env: engineSide([node]) });
      await lifecycle(stack, ["respool"]);
    });

    it("runs a Python program on the release's wheel, with the Pulumi SDK from PyPI", async () => {
      const dir = mkdtempSync(path.join(home, "python-"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: release-python\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n");
      writeFileSync(
        path.join(dir, "__main__.py"),
        'import pulumi_clusterform as clusterform\n\nclusterform.senlin.Policy("policy", spec={"type": "senlin.policy.deletion", "version": "1.0", "properties": {"criteria": "OLDEST_FIRST"}})\n',
      );
      const wheel = path.join(release.dir, `pulumi_clusterform-${release.version}-py3-none-any.whl`);
      const venv = makeVenv(dir, [wheel]);
      const stack = await openStack({
        programDir: dir,
        config: {
          ...config,
          "clusterform:senlinUsername": { value: SENLIN_USER.username },
          "clusterform:senlinProjectName": { value: SENLIN_USER.project },
          "clusterform:senlinPassword": { value: SENLIN_USER.password, secret: true },
        },
        // The virtual environment active, as after `source venv/bin/activate` (the Python host
        // the set-up builds finds Python on PATH).
        env: engineSide([path.join(venv, "bin")]),
      });
      await lifecycle(stack, ["policy"]);
    });
  });

  it("ships the plugin tarball with the executable at its root", async () => {
    const names: string[] = [];
    await tar.t({ file: path.join(release.dir, pluginTarballName(release.version, { os: os as never, arch: arch as never })), onReadEntry: (e) => names.push(e.path) });
    expect(names).toEqual(["pulumi-resource-clusterform"]);
  });
});
