import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../harness/paths";

const sdkVersion: string = require("@pulumi/pulumi/package.json").version;

/**
 * A `go` standing in for the toolchain: it logs each call and makes the file a build would make
 * (`-o <file>`, or the binary `go install` puts in GOBIN), or fails when its arguments contain
 * FAKE_GO_FAIL.
 */
const FAKE_GO = `
echo "$*" >>"$GO_LOG"
if [ -n "\${FAKE_GO_FAIL:-}" ]; then case "$*" in *"$FAKE_GO_FAIL"*) echo "fake go: failing" >&2; exit 1 ;; esac; fi
case "$1" in
  install) touch "$GOBIN/pulumi-language-yaml"; chmod +x "$GOBIN/pulumi-language-yaml" ;;
  mod) [ "$2" = download ] && printf '{\\n\\t"Dir": "%s",\\n}\\n' "$FAKE_SRC" ;;
  build) out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
    [ -n "$out" ] && touch "$out" && chmod +x "$out" ;;
esac
exit 0`;

function executable(file: string, script: string) {
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
}

/** A machine: an empty set-up cache, a fake `go`, and a Pulumi CLI either on PATH or in the cache. */
function machine(cli: "on-path" | "in-cache") {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-lang-"));
  const cache = path.join(dir, "cache");
  const tools = path.join(dir, "tools");
  mkdirSync(tools);
  mkdirSync(path.join(dir, "src"));
  executable(path.join(tools, "go"), FAKE_GO);
  const cliBin = cli === "on-path" ? path.join(dir, "cli") : path.join(cache, "pulumi", `v${sdkVersion}`, "bin");
  mkdirSync(cliBin, { recursive: true });
  executable(path.join(cliBin, "pulumi"), `echo v${sdkVersion}`);
  executable(path.join(cliBin, "pulumi-language-nodejs"), "exit 0");
  const PATH = [tools, ...(cli === "on-path" ? [cliBin] : []), path.dirname(process.execPath), "/usr/bin", "/bin"];
  const goLog = path.join(dir, "go.log");
  const setup = (env: Record<string, string> = {}) =>
    spawnSync("bash", [path.join(repoRoot(), "scripts", "setup.sh"), "pulumi", "languages"], {
      env: {
        PATH: PATH.join(path.delimiter),
        HOME: process.env.HOME ?? "/root",
        CLUSTERFORM_CACHE: cache,
        GO_LOG: goLog,
        FAKE_SRC: path.join(dir, "src"),
        ...env,
      },
      encoding: "utf8",
    });
  const goCalls = () => (existsSync(goLog) ? readFileSync(goLog, "utf8").trim().split("\n") : []);
  return { cache, cliBin, setup, goCalls };
}

// Each set-up run polls its builds once a second (the heartbeat): a few seconds per run, more on a
// loaded machine, so these get more than the unit tests' 30 s.
describe("scripts/setup.sh: the languages step", { timeout: 120_000 }, () => {
  it("builds the YAML and Go language hosts, the Go SDK and sdkgen once, beside a CLI in the cache", () => {
    const m = machine("in-cache");
    const first = m.setup();
    expect(first.status, first.stderr).toBe(0);
    const calls = m.goCalls();
    expect(calls.some((c) => c.includes("install") && c.includes("pulumi-language-yaml@v1.25.0"))).toBe(true);
    expect(calls).toContain("mod download -json github.com/pulumi/pulumi/sdk/v3@v3.66.0");
    expect(calls.some((c) => c.endsWith("./go/pulumi-language-go"))).toBe(true);
    expect(calls.filter((c) => c === "mod tidy")).toHaveLength(1);
    for (const host of ["pulumi-language-yaml", "pulumi-language-go"]) {
      const link = path.join(m.cliBin, host);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link).startsWith(m.cache)).toBe(true);
    }
    expect(readdirSync(path.join(m.cache, "sdkgen")).filter((d) => !d.startsWith("."))).toHaveLength(1);
    expect(existsSync(path.join(m.cache, "go", `pulumi-go-sdk-v${sdkVersion}.ok`))).toBe(true);

    // Warm: nothing is built again.
    const second = m.setup();
    expect(second.status, second.stderr).toBe(0);
    expect(m.goCalls()).toEqual(calls);
  });

  it("puts the hosts on PATH instead of writing into someone else's CLI folder", () => {
    const m = machine("on-path");
    const result = m.setup();
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(path.join(m.cliBin, "pulumi-language-yaml"))).toBe(false);
    expect(existsSync(path.join(m.cliBin, "pulumi-language-go"))).toBe(false);
    expect(existsSync(path.join(m.cache, "pulumi-language-yaml", "v1.25.0", "pulumi-language-yaml"))).toBe(true);
  });

  it("keeps a language host that ships with the CLI", () => {
    const m = machine("on-path");
    executable(path.join(m.cliBin, "pulumi-language-yaml"), "exit 0");
    const result = m.setup();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("yaml: using the language host shipped with the CLI");
    expect(m.goCalls().some((c) => c.includes("pulumi-language-yaml"))).toBe(false);
  });

  it("a failed build names what failed and leaves nothing half-built in the cache", () => {
    const m = machine("in-cache");
    const failed = m.setup({ FAKE_GO_FAIL: "pulumi-language-yaml" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("FAILED: go install pulumi-language-yaml@v1.25.0");
    expect(failed.stderr).toContain("check that the Go module proxy is reachable");
    expect(readdirSync(path.join(m.cache, "pulumi-language-yaml"))).toEqual([]);
    // The next run, with the toolchain working, builds it.
    const retried = m.setup();
    expect(retried.status, retried.stderr).toBe(0);
    expect(existsSync(path.join(m.cache, "pulumi-language-yaml", "v1.25.0", "pulumi-language-yaml"))).toBe(true);
  });
});
