#!/usr/bin/env node
// First: the Node.js check runs before anything that needs a newer Node loads.
import "../../../common/node-version";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadKinds } from "./planners";
import { readPlanJson } from "./preview-json";
import { buildReport, type PlanReport, renderJson, renderMarkdown, renderText } from "./report";

/**
 * Exit codes, for a CI to gate on (documented in docs/ci-plan.md).
 */
export const EXIT = {
  /** Nothing changes. */
  noChanges: 0,
  /** Bad arguments or input, or the preview failed (its errors are printed). */
  error: 1,
  /** Changes, none of them disruptive. */
  changes: 2,
  /** At least one disruptive change: a deletion, capacity removed, instances restarted, an upgrade. */
  disruptive: 3,
} as const;

const RENDERERS: Record<string, (r: PlanReport) => string> = { text: renderText, markdown: renderMarkdown, json: renderJson };

const USAGE = `Usage:
  clusterform plan [--format text|markdown|json] [FILE]     read \`pulumi preview --json\` or \`tofu show -json PLANFILE\` from FILE or stdin
  clusterform plan [--format ...] --run [-- PREVIEW-ARGS]   run \`pulumi preview --json PREVIEW-ARGS\` itself

Prints each changed resource's platform calls in order, disruptive ones flagged.
Exit codes: 0 no changes, 2 changes, 3 disruptive changes, 1 error.`;

/** What one run of the command prints and returns; `argv` is without `node` and the script. */
export async function runPlanCommand(argv: string[], stdin: () => string): Promise<{ stdout: string; stderr: string; code: number }> {
  const [command, ...rest] = argv;
  if (command !== "plan") return { stdout: "", stderr: `${command === undefined ? "no command" : `unknown command "${command}"`}; the one command is "plan"\n${USAGE}\n`, code: EXIT.error };
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(rest);
  } catch (err) {
    return { stdout: "", stderr: `${(err as Error).message}\n${USAGE}\n`, code: EXIT.error };
  }
  const { values, positionals } = parsed;
  if (values.help) return { stdout: `${USAGE}\n`, stderr: "", code: EXIT.noChanges };
  const format = values.format ?? "text";
  const render = RENDERERS[format];
  if (!render) return { stdout: "", stderr: `--format must be text, markdown or json, got "${format}"\n`, code: EXIT.error };
  let text: string;
  try {
    text = values.run ? runPreview(positionals) : positionals.length > 0 ? readFileSync(positionals[0], "utf8") : stdin();
    if (!values.run && positionals.length > 1) throw new Error(`one file at most, got ${positionals.length}: ${positionals.join(" ")}`);
    await loadKinds();
    const { changes, errors } = readPlanJson(text);
    const report = buildReport(changes, errors);
    const code = errors.length > 0 ? EXIT.error : report.summary.disruptive > 0 ? EXIT.disruptive : report.summary.changed > 0 ? EXIT.changes : EXIT.noChanges;
    return { stdout: render(report), stderr: "", code };
  } catch (err) {
    return { stdout: "", stderr: `clusterform plan: ${(err as Error).message}\n`, code: EXIT.error };
  }
}

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: "string", short: "f" }, run: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
}

/** Runs `pulumi preview --json` with the user's arguments; its JSON is printed even when the preview fails. */
function runPreview(args: string[]): string {
  const result = spawnSync("pulumi", ["preview", "--json", ...args], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] });
  if (result.error) throw new Error(`could not run \`pulumi preview\`: ${result.error.message}`);
  if (!result.stdout.trim()) throw new Error(`\`pulumi preview --json\` printed nothing (exit code ${result.status})`);
  return result.stdout;
}

if (require.main === module) {
  void runPlanCommand(process.argv.slice(2), () => readFileSync(0, "utf8")).then(({ stdout, stderr, code }) => {
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    process.exitCode = code;
  });
}
