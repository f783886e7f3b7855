import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { testRunMarker } from "./engine";
import { repoRoot, workDir } from "./paths";

/** The provider address the examples and tests use. */
export const PROVIDER_SOURCE = "registry.opentofu.org/clusterform/clusterform";

/** The result of one tofu command. */
export interface TofuResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One tofu working directory with its own CLI configuration and state. */
export interface TofuDir {
  readonly dir: string;
  /** Runs `tofu <args>` there (no colour, no prompts); resolves whatever the exit code. */
  run(args: string[], opts?: { env?: Record<string, string> }): Promise<TofuResult>;
  /** Runs tofu and fails the test with its output unless it exits 0. */
  ok(args: string[]): Promise<TofuResult>;
  /** `tofu show -json` of the state: the resources by address. */
  resources(): Promise<Record<string, { values: Record<string, unknown>; sensitive_values: Record<string, unknown> }>>;
  /**
   * The managed resources and their values read from the state file tofu wrote (terraform.tfstate),
   * with no tofu run and so no provider process started: `resources()` without the sensitivity marks
   * and without data sources.
   */
  stored(): Record<string, { values: Record<string, unknown> }>;
  /** Starts `tofu <args>` and returns the child, for tests that kill it. */
  start(args: string[]): ReturnType<typeof spawn>;
  /** The environment every tofu command runs with. */
  readonly env: Record<string, string>;
}

/** The tofu binary scripts/setup/opentofu.sh prepared. */
export function tofuBin(): string {
  const bin = process.env.CLUSTERFORM_TOFU;
  if (!bin || !existsSync(bin)) {
    throw new Error("CLUSTERFORM_TOFU is not set or missing: run the tests through scripts/test.sh or after `. scripts/setup.sh`, which builds OpenTofu");
  }
  return bin;
}

/**
 * A fresh working directory holding `example` (a folder of examples/hcl), whose tofu finds the
 * provider through `dev_overrides` at `providerDir` (the `bin` folder of the installed package).
 * `source` copies another folder instead (a benchmark's configuration).
 */
export function openTofuDir(name: string, opts: { example: string; providerDir: string; endpoint: string; source?: string }): TofuDir {
  const dir = path.join(workDir(), "tofu", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(opts.source ?? path.join(repoRoot(), "examples", "hcl", opts.example), dir, { recursive: true });
  const cliConfig = path.join(dir, ".tofurc");
  writeFileSync(
    cliConfig,
    `provider_installation {\n  dev_overrides {\n    "${PROVIDER_SOURCE}" = "${opts.providerDir}"\n  }\n  direct {}\n}\n`,
  );
  const [markerName, markerValue] = testRunMarker().split("=");
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    CLUSTERFORM_ENDPOINT: opts.endpoint,
    CLUSTERFORM_UNREACHABLE_TIMEOUT: "5s",
    [markerName]: markerValue,
  };
  const start = (args: string[], extra: Record<string, string> = {}) =>
    spawn(tofuBin(), [...args], { cwd: dir, env: { ...env, ...extra }, stdio: ["ignore", "pipe", "pipe"] });
  const run = (args: string[], o: { env?: Record<string, string> } = {}) =>
    new Promise<TofuResult>((resolve, reject) => {
      const child = start(args, o.env);
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (c) => {
        stdout += c;
      });
      child.stderr?.on("data", (c) => {
        stderr += c;
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  const ok = async (args: string[]) => {
    const result = await run(args);
    if (result.code !== 0) throw new Error(`tofu ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  return {
    dir,
    env,
    run,
    ok,
    start,
    async resources() {
      const shown = JSON.parse((await ok(["show", "-json", "-no-color"])).stdout);
      const list = (shown.values?.root_module?.resources ?? []) as { address: string; values: Record<string, unknown>; sensitive_values: Record<string, unknown> }[];
      return Object.fromEntries(list.map((r) => [r.address, r]));
    },
    stored() {
      return storedResources(path.join(dir, "terraform.tfstate"));
    },
  };
}

/**
 * A state file's managed resources by address as `tofu show -json` names them (none when there is no
 * file yet). Data sources (a lookup the configuration reads at every plan) are left out: they own nothing.
 */
function storedResources(file: string): Record<string, { values: Record<string, unknown> }> {
  if (!existsSync(file)) return {};
  type Instance = { index_key?: string | number; attributes: Record<string, unknown> };
  const state = JSON.parse(readFileSync(file, "utf8")) as { resources?: { mode: string; type: string; name: string; module?: string; instances: Instance[] }[] };
  const out: Record<string, { values: Record<string, unknown> }> = {};
  for (const r of (state.resources ?? []).filter((resource) => resource.mode !== "data")) {
    const base = `${r.module ? `${r.module}.` : ""}${r.type}.${r.name}`;
    for (const i of r.instances) out[i.index_key === undefined ? base : `${base}[${JSON.stringify(i.index_key)}]`] = { values: i.attributes };
  }
  return out;
}

/** Arguments of a non-interactive apply with variables. */
export function applyArgs(vars: Record<string, string | number> = {}): string[] {
  return ["apply", "-auto-approve", "-input=false", "-no-color", ...varArgs(vars)];
}

/** Arguments of a non-interactive plan with variables. */
export function planArgs(vars: Record<string, string | number> = {}, extra: string[] = []): string[] {
  return ["plan", "-input=false", "-no-color", ...extra, ...varArgs(vars)];
}

function varArgs(vars: Record<string, string | number>): string[] {
  return Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`]);
}
