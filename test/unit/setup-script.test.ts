import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../harness/paths";

const sdkVersion: string = require("@pulumi/pulumi/package.json").version;

/** A folder of executables standing in for tools on PATH. */
function fakeBin(tools: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-bin-"));
  for (const [name, script] of Object.entries(tools)) {
    writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

/** Runs `scripts/setup.sh pulumi` with only the given folders (plus node's and the system's) on PATH. */
function runSetup(pathDirs: string[], env: Record<string, string> = {}) {
  const cache = mkdtempSync(path.join(tmpdir(), "cf-cache-"));
  const PATH = [...pathDirs, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
  const result = spawnSync("bash", [path.join(repoRoot(), "scripts", "setup.sh"), "pulumi"], {
    env: { PATH, HOME: process.env.HOME ?? "/root", CLUSTERFORM_CACHE: cache, ...env },
    encoding: "utf8",
  });
  return { ...result, cache };
}

describe("scripts/setup.sh: the Pulumi CLI step", () => {
  it("reuses an installed CLI of the SDK's exact version instead of building one", () => {
    const bin = fakeBin({ pulumi: `echo v${sdkVersion}`, "pulumi-language-nodejs": "exit 0" });
    const { status, stderr, cache } = runSetup([bin]);
    expect(status).toBe(0);
    expect(stderr).toContain(`using the installed CLI ${bin}/pulumi (${sdkVersion})`);
    expect(existsSync(path.join(cache, "pulumi"))).toBe(false);
    expect(existsSync(path.join(bin, "pulumi-resource-pulumi-nodejs"))).toBe(true);
  });

  it("fails clearly without Go when no CLI of the right version is installed, building nothing", () => {
    const bin = fakeBin({ pulumi: "echo v3.1.0", "pulumi-language-nodejs": "exit 0" });
    const { status, stderr, cache } = runSetup([bin]);
    expect(status).toBe(1);
    expect(stderr).toContain("is version 3.1.0, not " + sdkVersion);
    expect(stderr).toContain(`FAILED: no Go toolchain to build the Pulumi CLI ${sdkVersion}`);
    expect(stderr).toMatch(/what to do: install Go >= [0-9.]+ \(or the official Pulumi CLI/);
    expect(existsSync(path.join(cache, "pulumi", `v${sdkVersion}`))).toBe(false);
  });

  it("fails clearly when the Go module proxy cannot be reached, leaving no partial build behind", () => {
    const goDir = path.dirname(spawnSync("bash", ["-c", "command -v go || echo /usr/local/go/bin/go"], { encoding: "utf8" }).stdout.trim());
    // Port 9 (discard) refuses connections; the fresh cache has nothing to fall back on.
    const { status, stderr, cache } = runSetup([goDir], { GOPROXY: "http://127.0.0.1:9/" });
    expect(status).toBe(1);
    expect(stderr).toContain(`FAILED: go mod download github.com/pulumi/pulumi/pkg/v3@v${sdkVersion}`);
    expect(stderr).toContain("check that the Go module proxy is reachable");
    const pulumiCache = path.join(cache, "pulumi");
    const left = existsSync(pulumiCache) ? readdirSync(pulumiCache) : [];
    expect(left).toEqual([]);
  });
});

describe("scripts/setup.sh: Node", () => {
  it("uses the Node on PATH when it is new enough", () => {
    mkdirSync(path.join(repoRoot(), ".work"), { recursive: true });
    const result = spawnSync("bash", [path.join(repoRoot(), "scripts", "setup.sh"), "node"], {
      env: { ...process.env, CLUSTERFORM_CACHE: mkdtempSync(path.join(tmpdir(), "cf-cache-")) },
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`node: using ${process.execPath} (${process.version})`);
  });
});

describe("scripts/setup.sh: concurrent set-ups", () => {
  it("waits for another set-up holding the same cache, and starts only once it has finished", async () => {
    const cache = mkdtempSync(path.join(tmpdir(), "cf-cache-"));
    const events = path.join(cache, "events");
    // Stands in for a set-up in the middle of a cold build: holds the cache's lock for a moment.
    const holder = spawn("flock", [path.join(cache, ".setup.lock"), "-c", `echo holder-started >>${events}; sleep 1; echo holder-done >>${events}`]);
    while (!existsSync(events)) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = spawn("bash", ["-c", `bash "${path.join(repoRoot(), "scripts", "setup.sh")}" node 2>&1; echo setup-done >>${events}`], {
      env: { ...process.env, CLUSTERFORM_CACHE: cache },
    });
    let output = "";
    second.stdout.on("data", (chunk) => {
      output += chunk;
    });
    await Promise.all([once(holder, "exit"), once(second, "exit")]);
    expect(output).toContain(`waiting for another set-up using ${cache} to finish`);
    expect(readFileSync(events, "utf8").trim().split("\n")).toEqual(["holder-started", "holder-done", "setup-done"]);
  });
});
