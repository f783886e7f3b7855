import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// The script is plain Node run by scripts/test.sh: it is tested the same way, on results and a README
// written here, through its command line.
const root = path.resolve(__dirname, "..", "..");
const script = path.join(root, "scripts", "matrix-table.mjs");

type Status = "passed" | "failed" | "skipped";

/** A vitest JSON result holding the given files, each with its suites' tests. */
function results(files: Record<string, Record<string, Record<string, Status>>>, extra: { other?: string } = {}) {
  return {
    startTime: Date.UTC(2026, 10, 22, 12, 34),
    testResults: [
      ...Object.entries(files).map(([file, suites]) => ({
        name: path.join(root, file),
        assertionResults: Object.entries(suites).flatMap(([suite, tests]) =>
          Object.entries(tests).map(([title, status]) => ({ ancestorTitles: [suite], title, status })),
        ),
      })),
      ...(extra.other ? [{ name: path.join(root, extra.other), assertionResults: [{ ancestorTitles: ["lifecycle"], title: "creates", status: "passed" }] }] : []),
    ],
  };
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs the script on `res` against a README holding `readme`; answers the README afterwards and the script's output. */
function run(res: unknown, readme: string): { readme: string; out: string } {
  dir ??= mkdtempSync(path.join(tmpdir(), "matrix-table-"));
  const resultsFile = path.join(dir, "results.json");
  const readmeFile = path.join(dir, "README.md");
  writeFileSync(resultsFile, JSON.stringify(res));
  writeFileSync(readmeFile, readme);
  const out = execFileSync(process.execPath, [script, resultsFile, readmeFile], { encoding: "utf8" });
  return { readme: readFileSync(readmeFile, "utf8"), out };
}

/** The table's rows as arrays of cells (header and separator left out). */
function rowsOf(readme: string): string[][] {
  const block = readme.slice(readme.indexOf("<!-- matrix:start -->"), readme.indexOf("<!-- matrix:end -->"));
  return block
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .map((l) => l.slice(1, -1).split("|").map((c) => c.trim()));
}

const README = "# Tests\n\nIntro.\n\n<!-- matrix:start -->\n<!-- matrix:end -->\n\nAfter.\n";
// Files that exist: a kept row's file must (rows of deleted files are dropped).
const KILL = "test/e2e/matrix-dynamic.test.ts";
const FAULTS = "test/e2e/matrix-chaos.test.ts";
const TOFU = "test/e2e/matrix-tofu.test.ts";

describe("scripts/matrix-table.mjs", () => {
  it("writes one row per matrix suite with its engine, one column per kind, passed / FAILED / not tried, with the file and the run", () => {
    const res = results({
      [KILL]: {
        "matrix(dynamic): SIGKILL during create": { "cmassh:Cluster": "passed", "senlin:Cluster": "failed" },
        "matrix(dynamic): SIGKILL during delete": { "cmassh:Cluster": "skipped" },
      },
    });
    const { readme, out } = run(res, README);
    const rows = rowsOf(readme);
    expect(rows[0]).toEqual(["scenario", "engine", "cmassh:Cluster", "senlin:Cluster", "file", "run"]);
    expect(rows[1]).toEqual(["---", "---", "---", "---", "---", "---"]);
    expect(rows.slice(2).map((r) => r.slice(0, 5))).toEqual([
      ["SIGKILL during create", "dynamic", "passed", "FAILED", `\`${KILL}\``],
      ["SIGKILL during delete", "dynamic", "not tried", "not tried", `\`${KILL}\``],
    ]);
    expect(rows[2][5]).toMatch(/^2026-11-22 12:34 UTC, ([0-9a-f]{7,}(\+changes)?|unknown commit)$/);
    expect(readme.startsWith("# Tests\n\nIntro.\n\n<!-- matrix:start -->\n")).toBe(true);
    expect(readme.endsWith("<!-- matrix:end -->\n\nAfter.\n")).toBe(true);
    expect(out).toContain("2 row(s) written");
  });

  it("keeps the rows of files a partial run did not cover, and replaces those of the files it ran", () => {
    const first = run(
      results({
        [KILL]: { "matrix(dynamic): SIGKILL during create": { "cmassh:Cluster": "failed" }, "matrix(dynamic): an old scenario": { "cmassh:Cluster": "passed" } },
        [FAULTS]: { "matrix(dynamic): transient faults": { "cmassh:Cluster": "passed", "peloton:StatelessJob": "passed" } },
      }),
      README,
    ).readme;
    const faultsRow = rowsOf(first).find((r) => r[0] === "transient faults");
    const second = run(results({ [KILL]: { "matrix(dynamic): SIGKILL during create": { "cmassh:Cluster": "passed" } } }), first).readme;
    const rows = rowsOf(second).slice(2);
    // Ordered by file; the faults row is untouched (cells and stamp), the old scenario of the rerun file is gone.
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      ["transient faults", "dynamic", "passed", "passed"],
      ["SIGKILL during create", "dynamic", "passed", "not tried"],
    ]);
    expect(rows[0]).toEqual(faultsRow);
  });

  it("brings each scenario's rows together, one per engine in the order of their files, whatever file each engine's rows come from", () => {
    const { readme } = run(
      results({
        [KILL]: { "matrix(dynamic): killed during create": { "cmassh:Cluster": "passed" }, "matrix(dynamic): faults": { "cmassh:Cluster": "passed" } },
        [TOFU]: { "matrix(tofu): killed during create": { "cmassh:Cluster": "failed" }, "matrix(tofu): faults": { "cmassh:Cluster": "passed" } },
      }),
      README,
    );
    expect(rowsOf(readme).slice(2).map((r) => r.slice(0, 3))).toEqual([
      ["killed during create", "dynamic", "passed"],
      ["killed during create", "tofu", "FAILED"],
      ["faults", "dynamic", "passed"],
      ["faults", "tofu", "passed"],
    ]);
  });

  it("drops the rows of files that no longer exist, and reads a table written before the engine column", () => {
    const old = README.replace(
      "<!-- matrix:end -->",
      "| scenario | cmassh:Cluster | file | run |\n| --- | --- | --- | --- |\n| gone | passed | `test/e2e/matrix-kill.test.ts` | then |\n| kept | FAILED | `test/e2e/matrix-concurrency.test.ts` | then |\n<!-- matrix:end -->",
    );
    const rows = rowsOf(run(results({ [TOFU]: { "matrix(tofu): faults": { "cmassh:Cluster": "passed" } } }), old).readme);
    expect(rows[0]).toEqual(["scenario", "engine", "cmassh:Cluster", "file", "run"]);
    expect(rows.slice(2).map((r) => r.slice(0, 4))).toEqual([
      ["kept", "", "FAILED", "`test/e2e/matrix-concurrency.test.ts`"],
      ["faults", "tofu", "passed", `\`${TOFU}\``],
    ]);
  });

  it("leaves the README alone when the results hold no matrix suite (a run of other files)", () => {
    const before = `${README.replace("<!-- matrix:end -->", "| scenario | engine | k | file | run |\n| --- | --- | --- | --- | --- |\n| kept | tofu | passed | `x` | then |\n<!-- matrix:end -->")}`;
    const { readme, out } = run(results({}, { other: "test/e2e/cmassh-lifecycle.test.ts" }), before);
    expect(readme).toBe(before);
    expect(out).toContain("no matrix rows");
  });

  it("writes a build output that does not exist yet from the committed test/README.md, which it leaves alone (the test command's case)", () => {
    dir ??= mkdtempSync(path.join(tmpdir(), "matrix-table-"));
    const resultsFile = path.join(dir, "results.json");
    const output = path.join(dir, "build", "reliability-matrix.md");
    const committed = readFileSync(path.join(root, "test", "README.md"), "utf8");
    writeFileSync(resultsFile, JSON.stringify(results({ [KILL]: { "matrix(dynamic): killed during create": { "cmassh:Cluster": "passed" } } })));
    execFileSync(process.execPath, [script, resultsFile, output], { encoding: "utf8" });
    const written = readFileSync(output, "utf8");
    expect(written.startsWith("# Tests")).toBe(true);
    expect(rowsOf(written).find((r) => r[0] === "killed during create")).toContain("passed");
    expect(readFileSync(path.join(root, "test", "README.md"), "utf8")).toBe(committed);
    expect(readFileSync(path.join(root, "scripts", "test.sh"), "utf8")).toContain("node scripts/matrix-table.mjs .work/vitest-results.json .work/reliability-matrix.md");
  });

  it("fails, saying so, when the README has no markers to write between", () => {
    expect(() => run(results({ [KILL]: { "matrix(dynamic): x": { k: "passed" } } }), "# no markers\n")).toThrow(/no "<!-- matrix:start -->" \.\.\. "<!-- matrix:end -->" markers/);
  });
});
