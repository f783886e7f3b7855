import { mkdirSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { workDir } from "../../test/harness/paths";

/** One row of a results table: column name to printed value. */
export type Row = Record<string, string | number>;

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values: the benchmark measured nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The arithmetic mean of `values`. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error("mean of no values: the benchmark measured nothing");
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Rounds to `digits` decimals, for figures meant to be read. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Renders rows as a fixed-width text table, columns in the order of the first row. */
export function formatTable(rows: readonly Row[]): string {
  if (rows.length === 0) return "(no rows)";
  const columns = Object.keys(rows[0]);
  const cells = [columns, ...rows.map((row) => columns.map((c) => String(row[c] ?? "")))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  const render = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  return [render(cells[0]), render(widths.map((w) => "-".repeat(w))), ...cells.slice(1).map(render)].join("\n");
}

/** Where each benchmark writes its JSON results. */
export function resultsFile(name: string): string {
  return path.join(workDir(), "bench", `${name}.json`);
}

/**
 * Prints a benchmark's table and writes its results, with the machine they were measured on, to
 * `.work/bench/<name>.json`.
 */
export function publish(name: string, title: string, rows: readonly Row[], results: Record<string, unknown>): void {
  const file = resultsFile(name);
  mkdirSync(path.dirname(file), { recursive: true });
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "unknown", node: process.version, platform: process.platform };
  writeFileSync(file, `${JSON.stringify({ benchmark: name, measuredAt: new Date().toISOString(), machine, rows, ...results }, null, 2)}\n`);
  console.log(`\n${title}\n\n${formatTable(rows)}\n\nresults: ${file}\n`);
}

/** Runs `fn` and returns its result with the wall-clock milliseconds it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}
