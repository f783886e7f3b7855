#!/usr/bin/env node
// Writes the reliability matrix from vitest's JSON results into a copy of test/README.md:
//   node scripts/matrix-table.mjs <vitest-results.json> [file]
// The test command writes the build output .work/reliability-matrix.md (a clean clone stays clean
// after a run); `npm run matrix:refresh` writes the committed test/README.md on purpose.
// One row per suite titled `matrix(<engine>): <scenario>` (test/harness/matrix.ts), with its engine
// in a column of its own, one column per resource kind (the suite's test titles), each cell passed /
// FAILED / not tried, with the row's test file and the date and commit of the run that produced it.
// A scenario's rows stand together, one per engine. Rows of files the results do not cover are kept
// as they were, so a partial run (`npm test -- <file>`) never wipes them; rows of files that no
// longer exist are dropped. Plain Node, no dependencies: scripts/test.sh runs it after vitest.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** A matrix suite's title: `matrix(<engine>): <scenario>`. */
const TITLE = /^matrix\(([^)]+)\):\s*(.+)$/;
const START = "<!-- matrix:start -->";
const END = "<!-- matrix:end -->";
const CELL = { passed: "passed", failed: "FAILED" };
const NOT_TRIED = "not tried";
const FIXED_HEAD = ["scenario", "engine"];
const FIXED_TAIL = ["file", "run"];

/**
 * The matrix rows of one vitest JSON result: `{ scenario, engine, file, cells: { kind: cell } }`, in
 * the order the results list them, and the files the results cover (relative to `root`).
 */
export function rowsFromResults(results, root, stamp) {
  const rows = new Map();
  const files = new Set();
  for (const file of results.testResults ?? []) {
    const rel = path.relative(root, file.name).split(path.sep).join("/");
    files.add(rel);
    for (const test of file.assertionResults ?? []) {
      const title = (test.ancestorTitles ?? []).map((t) => TITLE.exec(t)).find(Boolean);
      if (!title) continue;
      const [, engine, scenario] = title;
      const key = `${rel}\u0000${engine}\u0000${scenario}`;
      if (!rows.has(key)) rows.set(key, { scenario, engine, file: rel, run: stamp, cells: {} });
      rows.get(key).cells[test.title] = CELL[test.status] ?? NOT_TRIED;
    }
  }
  return { rows: [...rows.values()], files };
}

const splitCells = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
const escapeCell = (text) => String(text).replace(/\|/g, "\\|");

/** Parses a table written by {@link renderTable} back into its kinds and rows (none when there is no table). */
export function parseTable(block) {
  const lines = block.split("\n").filter((l) => l.trim().startsWith("|"));
  if (lines.length < 2) return { kinds: [], rows: [] };
  const header = splitCells(lines[0]);
  const head = header[1] === "engine" ? FIXED_HEAD.length : 1;
  const kinds = header.slice(head, header.length - FIXED_TAIL.length);
  const rows = lines.slice(2).map((line) => {
    const cells = splitCells(line);
    // A table written before the engine column had its rows all on one engine, unnamed.
    const engine = header[1] === "engine" ? cells[1] : "";
    const row = { scenario: cells[0], engine, file: cells.at(-2).replace(/^`|`$/g, ""), run: cells.at(-1), cells: {} };
    kinds.forEach((kind, i) => {
      if (cells[i + head] !== NOT_TRIED) row.cells[kind] = cells[i + head];
    });
    return row;
  });
  return { kinds, rows };
}

/**
 * The new table's rows: every fresh row; every old row of a file the results do not cover and that
 * still `exists`, kept as it was; old rows of covered files are gone (the file ran, so a row it no
 * longer produces is no longer part of the matrix), and so are those of files deleted since. Rows
 * are ordered by file, then as their file lists them; then each scenario's rows are brought
 * together where its first row stands, one per engine.
 */
export function mergeRows(oldRows, fresh, exists = () => true) {
  const kept = oldRows.filter((r) => !fresh.files.has(r.file) && exists(r.file));
  const all = [...kept, ...fresh.rows];
  const files = [...new Set(all.map((r) => r.file))].sort();
  const byFile = files.flatMap((f) => all.filter((r) => r.file === f));
  const scenarios = [...new Set(byFile.map((r) => r.scenario))];
  return scenarios.flatMap((s) => byFile.filter((r) => r.scenario === s));
}

/** Kind columns: those already in the table first, in their order, then new ones as the rows name them. */
export function kindColumns(previous, rows) {
  const kinds = [...previous];
  for (const row of rows) for (const kind of Object.keys(row.cells)) if (!kinds.includes(kind)) kinds.push(kind);
  return kinds.filter((k) => rows.some((r) => k in r.cells));
}

/** The markdown table. */
export function renderTable(kinds, rows) {
  const header = [...FIXED_HEAD, ...kinds, ...FIXED_TAIL];
  const line = (cells) => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [
    line(header),
    line(header.map(() => "---")),
    ...rows.map((r) => line([r.scenario, r.engine, ...kinds.map((k) => r.cells[k] ?? NOT_TRIED), `\`${r.file}\``, r.run])),
  ].join("\n");
}

/** Replaces what lies between the markers of `readme` with `table`; fails if the markers are missing. */
export function replaceBlock(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the README has no "${START}" ... "${END}" markers to write the matrix between`);
  const note = "<!-- generated by scripts/matrix-table.mjs from the test run's results; do not edit by hand -->";
  return `${readme.slice(0, start + START.length)}\n${note}\n\n${table}\n\n${readme.slice(end)}`;
}

/** The block between the markers (empty when there are none). */
export function currentBlock(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? "" : readme.slice(start + START.length, end);
}

/** `YYYY-MM-DD HH:MM UTC, <commit>`: when the run started and what it ran (`+changes` when the tree differed from it). */
export function runStamp(startTimeMs, root) {
  const date = `${new Date(startTimeMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const git = (args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  let commit = "unknown commit";
  try {
    commit = git(["rev-parse", "--short", "HEAD"]);
    if (git(["status", "--porcelain", "--untracked-files=no"]) !== "") commit += "+changes";
  } catch {
    // Not a git checkout (an unpacked release): the date alone.
  }
  return `${date}, ${commit}`;
}

/** Updates `readmePath` from `resultsPath`; returns how many rows the results gave (0: nothing written). */
export function updateMatrix(resultsPath, readmePath, root) {
  const results = JSON.parse(readFileSync(resultsPath, "utf8"));
  const fresh = rowsFromResults(results, root, runStamp(results.startTime ?? Date.now(), root));
  if (fresh.rows.length === 0) return 0;
  // A build output written for the first time starts from the committed copy's text (its header and markers).
  const readme = existsSync(readmePath) ? readFileSync(readmePath, "utf8") : readFileSync(path.join(root, "test", "README.md"), "utf8");
  const old = parseTable(currentBlock(readme));
  const rows = mergeRows(old.rows, fresh, (file) => existsSync(path.join(root, file)));
  mkdirSync(path.dirname(readmePath), { recursive: true });
  writeFileSync(readmePath, replaceBlock(readme, renderTable(kindColumns(old.kinds, rows), rows)));
  return fresh.rows.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const [resultsPath, readmePath = path.join(root, ".work", "reliability-matrix.md")] = process.argv.slice(2);
  if (!resultsPath) {
    console.error("usage: node scripts/matrix-table.mjs <vitest-results.json> [readme]");
    process.exit(2);
  }
  try {
    const n = updateMatrix(resultsPath, readmePath, root);
    console.log(n === 0 ? `[matrix] the results hold no matrix rows: ${path.relative(root, readmePath)} left as it was` : `[matrix] ${n} row(s) written to ${path.relative(root, readmePath)}`);
  } catch (err) {
    console.error(`[matrix] ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
