import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_SCREENSHOT_DIR, CONSOLE_SCREENSHOTS } from "../console/screenshots";
import { repoRoot } from "../harness/paths";

/** The page that shows the console's screenshots, from the repository's root. */
const DOC = "docs/local-plane.md";

/**
 * What is wrong with how `markdown` (a page in docs/) shows the screenshots `names`: each must be
 * shown once, as an image with alt text and an italic caption on the next line, and no other
 * picture of the folder may be named.
 */
function screenshotProblems(markdown: string, names: readonly string[]): string[] {
  const folder = path.relative("docs", CONSOLE_SCREENSHOT_DIR).split(path.sep).join("/");
  const escaped = folder.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const lines = markdown.split("\n");
  const problems: string[] = [];
  const shown = new Map<string, number>();
  lines.forEach((line, i) => {
    for (const match of line.matchAll(new RegExp(`${escaped}/([\\w.-]+)\\.png`, "g"))) {
      const name = match[1];
      shown.set(name, (shown.get(name) ?? 0) + 1);
      if (!names.includes(name)) problems.push(`line ${i + 1}: ${name}.png is no screenshot the console test takes`);
      const image = new RegExp(`^!\\[([^\\]]+)\\]\\(${escaped}/${name}\\.png\\)$`).exec(line.trim());
      if (!image) problems.push(`line ${i + 1}: ${name}.png is not shown as an image with alt text, alone on its line`);
      if (!/^\*[^*\s][^*]+\*$/.test(lines[i + 1]?.trim() ?? "")) problems.push(`line ${i + 1}: ${name}.png has no italic caption on the next line`);
    }
  });
  for (const name of names) {
    const count = shown.get(name) ?? 0;
    if (count !== 1) problems.push(`${name}.png is shown ${count} times, not once`);
  }
  return problems;
}

describe("the console's screenshots in docs/local-plane.md", () => {
  it("shows every screenshot the console test takes, once, with a caption, and no other", () => {
    expect(CONSOLE_SCREENSHOTS.length).toBeGreaterThan(5);
    expect(screenshotProblems(readFileSync(path.join(repoRoot(), DOC), "utf8"), CONSOLE_SCREENSHOTS)).toEqual([]);
  });

  it("finds each of them in docs/images/console, which holds nothing else", () => {
    const files = readdirSync(path.join(repoRoot(), CONSOLE_SCREENSHOT_DIR)).sort();
    expect(files).toEqual(CONSOLE_SCREENSHOTS.map((name) => `${name}.png`).sort());
  });

  it("reports a screenshot left out, one shown twice, one the test does not take, and one without alt text or caption", () => {
    const page = [
      "![The audit log](images/console/audit.png)",
      "*The audit log, filtered.*",
      "![Faults](images/console/faults.png)",
      "*Faults armed.*",
      "![Faults again](images/console/faults.png)",
      "",
      "![Old](images/console/stale.png)",
      "*A picture of another time.*",
      "See ![](images/console/audit.png) inline.",
    ].join("\n");
    expect(screenshotProblems(page, ["audit", "faults", "senlin"])).toEqual([
      "line 5: faults.png has no italic caption on the next line",
      "line 7: stale.png is no screenshot the console test takes",
      "line 9: audit.png is not shown as an image with alt text, alone on its line",
      "line 9: audit.png has no italic caption on the next line",
      "audit.png is shown 2 times, not once",
      "faults.png is shown 2 times, not once",
      "senlin.png is shown 0 times, not once",
    ]);
  });
});
