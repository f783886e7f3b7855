import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { type AllKindsStack, type Kind, kindOf, openAllKindsStack, type StateResource } from "./all-kinds";
import { changingSteps, engineEnv, spawnCli } from "./engine";
import { EngineFailure, type MatrixStack, type MatrixStackOptions } from "./matrix-stack";

/**
 * The all-kinds stack on Pulumi: with the dynamic providers (the program test/e2e/programs/all-kinds)
 * or the native plugin (test/e2e/programs/all-kinds-native), on a new plane.
 */
export async function openPulumiMatrixStack(engine: "dynamic" | "native", opts: MatrixStackOptions): Promise<MatrixStack> {
  // The repository's typecheck checks the native program against sdk/native; the engine's runs only
  // transpile it (a full check by the language host costs seconds of CPU on every run).
  const env: Record<string, string> = engine === "native" ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } : {};
  const t = await openAllKindsStack({ timeScale: opts.timeScale, program: engine === "native" ? "all-kinds-native" : "all-kinds", env });
  return pulumiMatrixStack(engine, t, env);
}

/**
 * Each failed resource's block of the `Diagnostics:` section of Pulumi's output, by kind: the
 * block is `  <type> (<name>):` and its indented lines.
 */
export function pulumiDiagnostics(output: string): Map<Kind, string> {
  const section = /Diagnostics:\n([\s\S]*?)(?:\n(?:Outputs|Resources):|$)/.exec(output)?.[1] ?? "";
  const blocks = new Map<Kind, string>();
  for (const m of section.matchAll(/^ {2}(\S+) \(([^)]+)\):\n((?: {4}.*\n?)+)/gm)) {
    const kind = kindOf(m[1]);
    if (kind) blocks.set(kind, `${blocks.get(kind) ?? ""}${m[3]}`);
  }
  return blocks;
}

/** The path of the stack's checkpoint in the file backend. */
export async function checkpointPath(t: AllKindsStack): Promise<string> {
  const project = (await t.stack.stack.workspace.projectSettings()).name;
  const backend = new URL(engineEnv().PULUMI_BACKEND_URL).pathname;
  return path.join(backend, ".pulumi", "stacks", project, `${t.stack.stack.name}.json`);
}

/** The pending operations the checkpoint on disk records, as `<type> <urn>` (empty before the first write). */
export function pendingOperations(checkpointFile: string): string[] {
  try {
    const pending: { type: string; resource: { urn: string } }[] = JSON.parse(readFileSync(checkpointFile, "utf8")).checkpoint?.latest?.pending_operations ?? [];
    return pending.map((op) => `${op.type} ${op.resource.urn}`);
  } catch {
    return [];
  }
}

/**
 * The kinds with an operation the engine began and did not finish since `baseline` (the pending
 * operations at the run's start): the engine writes a pending operation before it calls the
 * provider and clears it when the answer comes. Pending creates of earlier interrupted runs stay in
 * the checkpoint until an interactive refresh clears them, so only operations beyond the baseline
 * count. Read from the file, so it costs no CLI run and works mid-run.
 */
export function pendingKinds(checkpointFile: string, baseline: readonly string[]): Set<Kind> {
  const left = [...baseline];
  const kinds = new Set<Kind>();
  for (const op of pendingOperations(checkpointFile)) {
    const i = left.indexOf(op);
    if (i >= 0) {
      left.splice(i, 1);
      continue;
    }
    const kind = kindOf(op.split("::")[2] ?? "");
    if (kind) kinds.add(kind);
  }
  return kinds;
}

/** An all-kinds Pulumi stack (dynamic providers or native plugin) as a {@link MatrixStack}. */
async function pulumiMatrixStack(engine: "dynamic" | "native", t: AllKindsStack, env: Record<string, string>): Promise<MatrixStack> {
  const checkpoint = await checkpointPath(t);
  const workspace = t.stack.stack.workspace as LocalWorkspace;
  const failure = (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    return new EngineFailure(message, pulumiDiagnostics(message));
  };
  return {
    engine,
    plane: t.plane,
    configure: (values) => t.configure(values),
    async setCallTimeout(duration) {
      // The Automation API reads its workspace's environment at every run, as spawnCli reads `env`.
      for (const vars of [env, workspace.envVars]) {
        if (duration === undefined) delete vars.CLUSTERFORM_CALL_TIMEOUT;
        else vars.CLUSTERFORM_CALL_TIMEOUT = duration;
      }
    },
    async up(opts = {}) {
      await t.stack.up({ continueOnError: opts.continueOnError }).catch((err) => {
        throw failure(err);
      });
    },
    async destroy() {
      await t.stack.destroy().catch((err) => {
        throw failure(err);
      });
    },
    async planned() {
      return changingSteps(await t.stack.preview()).map((s) => ({ kind: kindOf(s.type), op: s.op, name: s.name }));
    },
    async resources() {
      return ((await t.stack.exportState()).deployment.resources ?? []) as StateResource[];
    },
    start(command) {
      const baseline = pendingOperations(checkpoint);
      const cli = spawnCli(t.programDir, [command, "--yes", "--skip-preview", "--stack", t.stack.stack.name], { env, output: true });
      let output = "";
      cli.stdout?.on("data", (chunk) => {
        output += chunk;
      });
      cli.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      let running = true;
      const ended = new Promise<EngineFailure | undefined>((resolve) => {
        cli.once("close", (code, signal) => {
          running = false;
          resolve(code === 0 ? undefined : failure(`pulumi ${command} ended (${code ?? signal}):\n${output}`));
        });
      });
      return { pid: cli.pid!, pending: () => pendingKinds(checkpoint, baseline), running: () => running, ended };
    },
    afterKill: () => t.stack.stack.cancel(),
  };
}
