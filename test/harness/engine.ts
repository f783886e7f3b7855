import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { isDeepStrictEqual, promisify } from "node:util";
import {
  type ConfigMap,
  type ConfigValue,
  type Deployment,
  type EngineEvent,
  LocalWorkspace,
  type OpType,
  PulumiCommand,
  type Stack,
} from "@pulumi/pulumi/automation";
import { inject } from "vitest";
import { SIG_KEY } from "../../provider/engines/pulumi-native/secrets";
import { Document, parseDocument } from "yaml";
import { repoRoot, workDir } from "./paths";

/** One step the engine planned or took for a resource. */
export interface StepRecord {
  urn: string;
  /** The resource's logical name (last URN segment). */
  name: string;
  type: string;
  op: OpType;
  /** Properties whose change caused the step. */
  diffs: string[];
  /** Properties that forced a replacement. */
  replaceKeys: string[];
  failed: boolean;
  /** The object's id before the step, when it existed. */
  id?: string;
  /** The old state's outputs (a dynamic resource's outputs hold its inputs too). */
  olds?: Record<string, unknown>;
  /** The new inputs, as the provider's check returned them. */
  news?: Record<string, unknown>;
}

/** What one engine operation did. */
export interface RunResult {
  steps: StepRecord[];
  outputs: Record<string, unknown>;
  stdout: string;
}

/** A stack of one program directory, driven through the real Pulumi CLI. */
/** Options of a preview or an up. */
export interface RunOptions {
  /** URNs to replace, as `pulumi up --replace <urn>`. @default [] */
  replace?: string[];
  /** Keep running independent steps after one fails, as `pulumi up --continue-on-error`. @default false */
  continueOnError?: boolean;
  /** How many steps run at once, as `pulumi up --parallel <n>`. @default the CLI's default */
  parallel?: number;
}

export interface EngineStack {
  readonly stack: Stack;
  preview(opts?: RunOptions): Promise<RunResult>;
  up(opts?: RunOptions): Promise<RunResult>;
  refresh(): Promise<RunResult>;
  destroy(): Promise<RunResult>;
  exportState(): Promise<Deployment>;
  /**
   * The checkpoint exactly as the file backend stored it (the Automation API's export decrypts
   * secrets, so only this shows what is really on disk).
   */
  storedState(): Promise<string>;
  setConfig(key: string, value: string, secret?: boolean): Promise<void>;
  /**
   * Sets the values given and removes the keys given `undefined`, in the stack's config file
   * (`Pulumi.<stack>.yaml`, which the CLI reads at every run), as `pulumi config set-all` /
   * `config rm-all` would leave it. Plain values need no CLI run; secrets are encrypted by one
   * `config set-all` with the stack's secrets provider. A key without a namespace is the project's.
   */
  configure(values: Record<string, ConfigValue | undefined>): Promise<void>;
  /** The URN of the resource with this logical name, from the stored state. */
  urnOf(name: string): Promise<string>;
}

const PASSPHRASE = "clusterform-tests";
const execFileAsync = promisify(execFile);
let engineHome: string | undefined;

/**
 * A private Pulumi home and file backend for this test process: nothing leaks into the user's
 * ~/.pulumi, and no test needs the network (update checks and plugin downloads are off).
 */
export function engineEnv(): Record<string, string> {
  engineHome ??= path.join(workDir(), "engine", `${process.pid}-${Date.now()}`);
  const home = path.join(engineHome, "home");
  const backend = path.join(engineHome, "backend");
  mkdirSync(home, { recursive: true });
  mkdirSync(backend, { recursive: true });
  const [markerName, markerValue] = testRunMarker().split("=");
  return {
    [markerName]: markerValue,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}

/** `CLUSTERFORM_TEST_RUN=<id>`: every process a test starts carries it, so none can be left behind unseen. */
export function testRunMarker(): string {
  return inject("testRun");
}

/** The folder holding the Pulumi CLI that scripts/setup.sh prepared (or found). */
export function pulumiBinDir(): string {
  const dir = process.env.CLUSTERFORM_PULUMI_BIN;
  if (!dir) {
    throw new Error("CLUSTERFORM_PULUMI_BIN is not set: run the tests through `npm test` (scripts/test.sh), which sets up the Pulumi CLI");
  }
  return dir;
}

/**
 * Starts `pulumi <args>` in `programDir` as its own process group, with the same private home and
 * backend as {@link openStack}, so a test can kill the whole engine (CLI, language host, providers)
 * the way an interrupted CI job would.
 * @param opts.env - extra environment. @default {}
 * @param opts.output - pipe stdout and stderr to the caller (who must read them). @default false: ignored
 */
export function spawnCli(programDir: string, args: string[], opts: { env?: Record<string, string>; output?: boolean } = {}): ChildProcess {
  const binDir = pulumiBinDir();
  return spawn(path.join(binDir, "pulumi"), [...args, "--non-interactive", "--color", "never"], {
    cwd: programDir,
    env: { ...process.env, ...engineEnv(), PATH: `${binDir}${path.delimiter}${process.env.PATH}`, ...opts.env },
    detached: true,
    stdio: opts.output ? ["ignore", "pipe", "pipe"] : "ignore",
  });
}

let stacksOpened = 0;

// All stacks of a test process share one backend: each gets its own name so none sees another's state.
function uniqueStackName(): string {
  stacksOpened++;
  return `t${stacksOpened}-${Date.now().toString(36)}`;
}

/** Opens (creating if needed) a stack of the program in `programDir`. */
// `PulumiCommand.get` runs `pulumi version`: once per test process, not once per stack.
let pulumiCommand: Promise<PulumiCommand> | undefined;

/**
 * Opens a stack of the program in `programDir`: a new one with a generated name, or the one named
 * `stackName`, created if needed (`stack select`, then `stack init` when it is not there).
 */
export async function openStack(opts: {
  programDir: string;
  stackName?: string;
  config?: ConfigMap;
  env?: Record<string, string>;
}): Promise<EngineStack> {
  const binDir = pulumiBinDir();
  pulumiCommand ??= PulumiCommand.get({ root: path.dirname(binDir), skipVersionCheck: true });
  const env = engineEnv();
  const workspaceOptions = {
    pulumiCommand: await pulumiCommand,
    pulumiHome: env.PULUMI_HOME,
    envVars: { ...env, PATH: `${binDir}${path.delimiter}${process.env.PATH}`, ...opts.env },
  };
  const stack = opts.stackName
    ? await LocalWorkspace.createOrSelectStack({ stackName: opts.stackName, workDir: opts.programDir }, workspaceOptions)
    : await LocalWorkspace.createStack({ stackName: uniqueStackName(), workDir: opts.programDir }, workspaceOptions);
  const wrapped = wrapStack(stack);
  if (opts.config) await wrapped.configure(opts.config);
  return wrapped;
}

function wrapStack(stack: Stack): EngineStack {
  const storedState = async () => {
    const settings = await stack.workspace.projectSettings();
    const backend = new URL(engineEnv().PULUMI_BACKEND_URL).pathname;
    return readFileSync(path.join(backend, ".pulumi", "stacks", settings.name, `${stack.name}.json`), "utf8");
  };
  const run = async (kind: "preview" | "up" | "refresh" | "destroy", opts: RunOptions = {}): Promise<RunResult> => {
    const collector = new StepCollector();
    const common = { onEvent: (e: EngineEvent) => collector.add(e), color: "never" as const };
    switch (kind) {
      case "preview": {
        const r = await stack.preview({ ...common, diff: true, replace: opts.replace });
        return { steps: collector.steps, outputs: {}, stdout: r.stdout };
      }
      case "up":
        return upWithOneOutputRead(stack, opts, collector, storedState);
      // As the Automation API runs them, minus the `stack history` it adds after each.
      case "refresh":
      case "destroy":
        return { steps: collector.steps, outputs: {}, stdout: await runWithEventLog(stack, [kind, "--yes", "--skip-preview"], collector) };
    }
  };
  return {
    stack,
    preview: (opts) => run("preview", opts),
    up: (opts) => run("up", opts),
    refresh: () => run("refresh"),
    destroy: () => run("destroy"),
    exportState: () => stack.exportStack(),
    storedState,
    setConfig: (key, value, secret = false) => configure(stack, { [key]: { value, secret } }),
    configure: (values) => configure(stack, values),
    // From the stored checkpoint (URNs are never secret): no `stack export` run.
    urnOf: async (name) => {
      const resources: { urn: string }[] = JSON.parse(await storedState()).checkpoint?.latest?.resources ?? [];
      const found = resources.find((r: { urn: string }) => r.urn.endsWith(`::${name}`));
      if (!found) throw new Error(`no resource named ${name} in the state`);
      return found.urn;
    },
  };
}

/** See {@link EngineStack.configure}. */
async function configure(stack: Stack, values: Record<string, ConfigValue | undefined>): Promise<void> {
  const project = (await stack.workspace.projectSettings()).name;
  const qualified = (key: string) => (key.includes(":") ? key : `${project}:${key}`);
  const entries = Object.entries(values);
  const plain = entries.filter(([, v]) => v !== undefined && !v.secret);
  const removed = entries.filter(([, v]) => v === undefined);
  if (plain.length > 0 || removed.length > 0) {
    const file = path.join(stack.workspace.workDir, `Pulumi.${stack.name}.yaml`);
    const doc = existsSync(file) ? parseDocument(readFileSync(file, "utf8")) : new Document({});
    for (const [key, v] of plain) doc.setIn(["config", qualified(key)], v?.value);
    for (const [key] of removed) doc.deleteIn(["config", qualified(key)]);
    writeFileSync(file, doc.toString());
  }
  const secrets = entries.filter(([, v]) => v?.secret);
  if (secrets.length > 0) await stack.setAllConfig(Object.fromEntries(secrets) as ConfigMap);
}

/**
 * `pulumi up` as the Automation API runs it, minus the three CLI runs `Stack.up()` adds afterwards
 * (two `stack output` and a `stack history`, about 1.5 s of CPU on these machines). The outputs
 * come from the stored checkpoint the up has just written; only when one of them is a secret (held
 * there encrypted) does one `stack output --show-secrets` decrypt them. The events are read from
 * the log file once the CLI has exited.
 */
async function upWithOneOutputRead(
  stack: Stack,
  opts: RunOptions,
  collector: StepCollector,
  storedState: () => Promise<string>,
): Promise<RunResult> {
  const extra = (opts.replace ?? []).flatMap((urn) => ["--replace", urn]);
  if (opts.continueOnError) extra.push("--continue-on-error");
  if (opts.parallel !== undefined) extra.push("--parallel", String(opts.parallel));
  const stdout = await runWithEventLog(stack, ["up", "--yes", "--skip-preview", ...extra], collector);
  const stored = plainStackOutputs(await storedState());
  const outputs = stored ?? (JSON.parse(await runCli(stack, ["stack", "output", "--json", "--show-secrets"])) as Record<string, unknown>);
  return { steps: collector.steps, outputs, stdout };
}

/** The stack's outputs from a stored checkpoint, or undefined when one of them is a secret (stored encrypted). */
function plainStackOutputs(checkpointText: string): Record<string, unknown> | undefined {
  const resources: { type: string; outputs?: Record<string, unknown> }[] = JSON.parse(checkpointText).checkpoint?.latest?.resources ?? [];
  const outputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  // A secret is stored as an object holding the engine's signature key (SIG_KEY).
  return JSON.stringify(outputs).includes(`"${SIG_KEY}"`) ? undefined : outputs;
}

/** Runs one engine operation through the CLI, its events read from the log file once it has exited (failed or not). */
async function runWithEventLog(stack: Stack, args: string[], collector: StepCollector): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "clusterform-events-"));
  const log = path.join(dir, "events.jsonl");
  try {
    return await runCli(stack, [...args, "--exec-kind", "auto.local", "--event-log", log]).finally(() => {
      const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
      for (const line of lines) if (line.trim() !== "") collector.add(JSON.parse(line) as EngineEvent);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the CLI on the stack as the Automation API would; a failure's message holds its stdout and stderr. */
async function runCli(stack: Stack, args: string[]): Promise<string> {
  const ws = stack.workspace as LocalWorkspace;
  const env = { ...process.env, PULUMI_DEBUG_COMMANDS: "true", ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
  const cli = path.join(pulumiBinDir(), "pulumi");
  try {
    const { stdout } = await execFileAsync(cli, [...args, "--stack", stack.name, "--non-interactive", "--color", "never"], {
      cwd: ws.workDir,
      env,
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    throw new Error(`code: ${e.code}\n stdout: ${e.stdout ?? ""}\n stderr: ${e.stderr ?? e.message}\n`);
  }
}


class StepCollector {
  readonly steps: StepRecord[] = [];

  add(event: EngineEvent): void {
    const pre = event.resourcePreEvent?.metadata;
    if (pre) {
      this.steps.push({
        urn: pre.urn,
        name: pre.urn.split("::").pop() ?? pre.urn,
        type: pre.type,
        op: pre.op,
        diffs: pre.diffs?.length ? pre.diffs : changedInputs(pre.old?.inputs, pre.new?.inputs),
        replaceKeys: pre.keys ?? [],
        failed: false,
        id: pre.old?.id || undefined,
        olds: pre.old?.outputs,
        news: pre.new?.inputs,
      });
    }
    const failed = event.resOpFailedEvent?.metadata;
    if (failed) {
      for (const s of this.steps) {
        if (s.urn === failed.urn && s.op === failed.op) s.failed = true;
      }
    }
  }
}

// Dynamic providers report no per-property diff, so the properties that caused a step are the
// top-level inputs that differ between the old and the new state (`__provider` is plumbing).
function changedInputs(olds: Record<string, unknown> | undefined, news: Record<string, unknown> | undefined): string[] {
  if (!olds || !news) return [];
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete("__provider");
  return [...keys].filter((k) => !isDeepStrictEqual(olds[k], news[k])).sort();
}

/**
 * Destroys the stack if its stored checkpoint still holds resources (what a failed test leaves), for
 * an afterAll: a destroy of a stack a test already destroyed is an engine run for nothing. Never throws.
 */
export async function destroyLeftovers(stack: EngineStack | undefined): Promise<void> {
  if (!stack) return;
  const held = await stack.storedState().then((text) => (JSON.parse(text).checkpoint?.latest?.resources ?? []).length, () => 1);
  if (held > 0) await stack.destroy().catch(() => undefined);
}

/** Steps of user resources (not the stack, not providers). */
export function resourceSteps(result: RunResult): StepRecord[] {
  return result.steps.filter((s) => s.type !== "pulumi:pulumi:Stack" && !s.type.startsWith("pulumi:providers:"));
}

/** Steps that change something (anything but `same`). */
export function changingSteps(result: RunResult): StepRecord[] {
  return resourceSteps(result).filter((s) => s.op !== "same");
}

export { repoRoot };
