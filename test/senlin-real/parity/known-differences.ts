import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../harness/paths";
import type { Difference } from "./normalize";

/** One row of the table of differences that stay, in docs/local-plane-fidelity.md. */
export interface KnownDifference {
  scenario: string;
  /** A step name, or `*` for every step. */
  step: string;
  /** A field path (`status`, `body.cluster.policies`, `action.status_reason`); covers the fields below it too. `*` matches any characters. */
  field: string;
  reason: string;
}

/** The heading above the table in docs/local-plane-fidelity.md. */
export const TABLE_HEADING = "### Differences from the real Senlin that stay";

const unquote = (cell: string) => cell.trim().replace(/^`(.*)`$/, "$1");

/** The rows of the table under {@link TABLE_HEADING}: `| scenario | step | field | real Senlin | the plane | why |`. */
export function readKnownDifferences(file = path.join(repoRoot(), "docs", "local-plane-fidelity.md")): KnownDifference[] {
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(TABLE_HEADING);
  if (start < 0) throw new Error(`${file} has no "${TABLE_HEADING}" section`);
  const section = text.slice(start).split("\n").slice(1);
  const end = section.findIndex((line) => line.startsWith("#"));
  const rows = (end < 0 ? section : section.slice(0, end)).filter((line) => line.startsWith("|"));
  return rows.slice(2).map((line) => {
    const cells = line.slice(1, -1).split(" | ");
    if (cells.length !== 6) throw new Error(`${file}: a row of "${TABLE_HEADING}" has ${cells.length} cells, not 6: ${line}`);
    return { scenario: unquote(cells[0]), step: unquote(cells[1]), field: unquote(cells[2]), reason: cells[5].trim() };
  });
}

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}`);
}

/** Whether a listed row covers a difference (same scenario, the step or `*`, the field or one above it). */
export function covers(row: KnownDifference, difference: Difference): boolean {
  const [scenario, step, field] = difference.key.split(" / ");
  if (row.scenario !== scenario || (row.step !== "*" && row.step !== step)) return false;
  const match = glob(row.field).exec(field);
  return match !== null && (match[0].length === field.length || /^[.[]/.test(field.slice(match[0].length)));
}
