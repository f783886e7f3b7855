import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { EngineEvent, LocalWorkspace, OpType } from "@pulumi/pulumi/automation";
import { type EngineStack, pulumiBinDir } from "../../test/harness/engine";

const execFileAsync = promisify(execFile);

/** One `pulumi up` as a user runs it: its wall time and the step taken for each resource. */
export interface CliUp {
  /** CLI start to exit, milliseconds. */
  ms: number;
  /** The step of each user resource (not the stack, not providers), by URN. */
  ops: Map<string, OpType>;
}

/**
 * Runs `pulumi up --yes --skip-preview` of the stack as a separate CLI process and times it from
 * start to exit. The harness's `up` and the Automation API's `Stack.up()` add CLI runs after it
 * (stack outputs, history), which a benchmark of the `up` itself must leave out.
 * @param parallel - `--parallel`. @default the CLI's own default (4 x CPUs)
 */
export async function cliUp(stack: EngineStack, opts: { parallel?: number } = {}): Promise<CliUp> {
  const ws = stack.stack.workspace as LocalWorkspace;
  const dir = mkdtempSync(path.join(tmpdir(), "clusterform-bench-up-"));
  const log = path.join(dir, "events.jsonl");
  const args = ["up", "--yes", "--skip-preview", "--stack", stack.stack.name, "--non-interactive", "--color", "never", "--event-log", log];
  if (opts.parallel !== undefined) args.push("--parallel", String(opts.parallel));
  // `--event-log` is one of the flags the CLI shows only with PULUMI_DEBUG_COMMANDS.
  const env = { ...process.env, PULUMI_DEBUG_COMMANDS: "true", ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars };
  try {
    const start = performance.now();
    try {
      await execFileAsync(path.join(pulumiBinDir(), "pulumi"), args, { cwd: ws.workDir, env, maxBuffer: 256 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`pulumi up of stack ${stack.stack.name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
    }
    const ms = performance.now() - start;
    const ops = new Map<string, OpType>();
    const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
    for (const line of lines) {
      if (line.trim() === "") continue;
      const meta = (JSON.parse(line) as EngineEvent).resourcePreEvent?.metadata;
      if (meta && meta.type !== "pulumi:pulumi:Stack" && !meta.type.startsWith("pulumi:providers:")) ops.set(meta.urn, meta.op);
    }
    return { ms, ops };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `op name` of every step that is not `same`, for an error message. */
export function changedOps(ops: Map<string, OpType>): string[] {
  return [...ops].filter(([, op]) => op !== "same").map(([urn, op]) => `${op} ${urn.split("::").pop()}`);
}
