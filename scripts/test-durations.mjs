#!/usr/bin/env node
// Writes each test file's duration (seconds, from vitest's JSON results of a full run) to
// test/durations.json, which the test command's sequencer (LongestFirst in vitest.config.mts) reads to
// start the longest files first:
//   node scripts/test-durations.mjs <vitest-results.json> [file]
// `npm run durations:refresh` runs it on the last run's .work/vitest-results.json, on purpose.
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const [resultsPath, out = path.join("test", "durations.json")] = process.argv.slice(2);
if (!resultsPath) {
  console.error("usage: node scripts/test-durations.mjs <vitest-results.json> [file]");
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsPath, "utf8"));
const root = process.cwd();
const seconds = {};
for (const file of results.testResults) {
  const spent = (file.endTime - file.startTime) / 1000;
  if (Number.isFinite(spent)) seconds[path.relative(root, file.name)] = Math.round(spent * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`[durations] ${Object.keys(sorted).length} file(s) written to ${out}`);
