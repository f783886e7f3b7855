import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { PLATFORMS } from "../../emulator/platforms";
import { actionOperation } from "../../emulator/senlin/cluster-actions";
import { matchPath, SENLIN_ROUTES } from "../../emulator/senlin/routes";
import { repoRoot } from "../harness/paths";
import { readKnownDifferences } from "../senlin-real/parity/known-differences";
import { SCENARIOS, type Step } from "../senlin-real/parity/scenarios";

const DOC = path.join(repoRoot(), "docs", "local-plane-fidelity.md");

/** The rows of "How each operation is checked": platform, operation, how. */
function operationTable(): { api: string; operation: string; how: string }[] {
  const text = readFileSync(DOC, "utf8");
  const section = text.slice(text.indexOf("## How each operation is checked"));
  return section
    .split("\n")
    .filter((line) => /^\| \w+ \| `/.test(line))
    .map((line) => {
      const [api, operation, how] = line.slice(1, -1).split(" | ").map((c) => c.trim().replace(/`/g, ""));
      return { api, operation, how };
    });
}

/** The Senlin operation a scenario request is audited as (the plane's own routing decides). */
function operationOfRequest(method: string, url: string, body?: unknown): string | undefined {
  const pathname = url.split("?")[0].replace(/\{\{\w+\}\}/g, "x");
  if (method === "GET" && (pathname === "/" || pathname === "/versions")) return "ListVersions";
  const route = SENLIN_ROUTES.find((r) => r.method === method && matchPath(r.path, pathname));
  if (!route) return undefined;
  if (typeof route.operation === "string") return route.operation;
  // The node actions route names its operation by the body's action, as the cluster actions route does.
  if (route.path.startsWith("/v1/nodes/")) return { check: "CheckNode", recover: "RecoverNode" }[Object.keys(body as object)[0]] ?? "NodeAction";
  return actionOperation(body);
}

/** Every operation the parity scenarios compare: each step's request, and the reads of its waits and state. */
function operationsOfScenarios(): Set<string> {
  const seen = new Set<string>();
  const add = (op: string | undefined) => op && seen.add(op);
  const stepOps = (step: Step) => {
    add(step.url ? "TriggerWebhook" : operationOfRequest(step.method, step.path ?? "", step.body));
    if (step.wait === "action") add("GetAction");
    if (step.wait === "idle") add("ListActions");
    if (step.state) add(operationOfRequest("GET", step.state));
  };
  for (const scenario of SCENARIOS) for (const step of scenario.steps) stepOps(step);
  return seen;
}

describe("docs/local-plane-fidelity.md", () => {
  const table = operationTable();

  it("names every operation of every platform once, with how it is checked", () => {
    for (const module of PLATFORMS) {
      const rows = table.filter((r) => r.api === module.api).map((r) => r.operation);
      expect([...rows].sort(), module.api).toEqual([...new Set(module.operations)].sort());
    }
    expect(new Set(table.map((r) => r.how))).toEqual(new Set(["the real server", "real clients", "hand-written"]));
  });

  it('marks "the real server" exactly the Senlin operations the parity scenarios compare', () => {
    const marked = table.filter((r) => r.how === "the real server").map((r) => `${r.api} ${r.operation}`);
    expect(marked.sort()).toEqual([...operationsOfScenarios()].map((op) => `senlin ${op}`).sort());
  });

  it("lists the real Senlin's differences in a table the parity test reads", () => {
    for (const row of readKnownDifferences(DOC)) {
      expect(SCENARIOS.map((s) => s.name), `the scenario of "${row.field}"`).toContain(row.scenario);
      if (row.step !== "*") expect(SCENARIOS.find((s) => s.name === row.scenario)!.steps.map((s) => s.name)).toContain(row.step);
      expect(row.reason.length).toBeGreaterThan(10);
    }
  });
});
