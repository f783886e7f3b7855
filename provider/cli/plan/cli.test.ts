import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT, runPlanCommand } from "./cli";
import type { PlanReport } from "./report";
import { loadKinds } from "./planners";

/** `pulumi preview --json` of a CycleCloud pool going from 3 nodes to 1, recorded by test/e2e/plan-ci.test.ts. */
const FIXTURE = path.join(__dirname, "..", "..", "..", "test", "fixtures", "plan", "scale-down.preview.json");
const recorded = readFileSync(FIXTURE, "utf8");

/** The recorded preview with the pool's new count replaced (a scale-up when above 3), and a new powerState if given. */
function withCount(count: number, powerState?: string): string {
  const doc = JSON.parse(recorded);
  for (const step of doc.steps) {
    if (step.newState?.inputs?.count === undefined) continue;
    step.newState.inputs.count = count;
    if (powerState) step.newState.inputs.powerState = powerState;
  }
  return JSON.stringify(doc);
}

const run = (args: string[], stdin = "") => runPlanCommand(args, () => stdin);

describe("clusterform plan on a recorded preview", () => {
  it("text: the resource, its calls in order, the nodes removed, flagged; exit 3", async () => {
    const { stdout, code } = await run(["plan", FIXTURE]);
    expect(code).toBe(EXIT.disruptive);
    expect(stdout).toBe(
      [
        "! update work (cyclecloud:NodePool)",
        "    1. RemoveNodes demo: removes 2 node(s): execute-3, execute-2 (3 -> 1) [CAPACITY REMOVED]",
        '       names=["execute-3","execute-2"]',
        "1 resource(s) change, 1 platform call(s), 1 disruptive.",
        "",
      ].join("\n"),
    );
  });

  it("markdown from stdin: one table row with the warning mark", async () => {
    const { stdout, code } = await run(["plan", "--format", "markdown"], recorded);
    expect(code).toBe(EXIT.disruptive);
    expect(stdout).toContain("| ⚠️ | `work` cyclecloud:NodePool | update | 1. `RemoveNodes demo` removes 2 node(s): execute-3, execute-2 (3 -> 1) [CAPACITY REMOVED] |");
  });

  it("json: the report a tool reads", async () => {
    const report = JSON.parse((await run(["plan", "-f", "json"], recorded)).stdout);
    expect(report.summary).toEqual({ changed: 1, disruptive: 1, operations: 1 });
    expect(report.resources[0].operations[0]).toMatchObject({ call: "RemoveNodes", target: "demo", args: { names: ["execute-3", "execute-2"] }, disruptions: ["capacity-removed"] });
  });

  it("a scale-up is a change without disruption: exit 2", async () => {
    const { stdout, code } = await run(["plan"], withCount(5));
    expect(code).toBe(EXIT.changes);
    expect(stdout).toContain("  update work (cyclecloud:NodePool)\n    1. CreateNodes demo: adds 2 node(s) to nodearray execute (3 -> 5)\n");
  });

  it("parking the pool names the call and flags it; exit 3", async () => {
    const { stdout, code } = await run(["plan"], withCount(3, "deallocated"));
    expect(code).toBe(EXIT.disruptive);
    expect(stdout).toContain(
      "! update work (cyclecloud:NodePool)\n    1. DeallocateNodes demo: deallocates (VMs stopped, disks and private IPs kept) the pool's 3 node(s) (powerState running -> deallocated) [CAPACITY REMOVED]\n",
    );
  });

  it("a step that calls no platform operation says so (exit 2: the state still changes); no steps: exit 0", async () => {
    expect(await run(["plan"], withCount(3))).toMatchObject({ code: EXIT.changes, stdout: expect.stringContaining("  update work (cyclecloud:NodePool)\n      (no platform call: only the stack's state changes)\n") });
    expect(await run(["plan"], JSON.stringify({ steps: [] }))).toEqual({ stdout: "No changes.\n", stderr: "", code: EXIT.noChanges });
  });

  it("a failed preview's errors are printed and exit 1", async () => {
    const failed = JSON.stringify({ diagnostics: [{ urn: "urn:pulumi:s::p::t::work", severity: "error", message: "count must be at most 1000, got 5000\n" }] });
    const { stdout, code } = await run(["plan"], failed);
    expect(code).toBe(EXIT.error);
    expect(stdout).toContain("error: work: count must be at most 1000, got 5000");
  });

  it("bad input and bad arguments are clear errors, exit 1", async () => {
    expect(await run(["plan"], "not json")).toMatchObject({ code: EXIT.error, stderr: expect.stringMatching(/the input is not JSON .*pulumi preview --json.*tofu show -json <planfile>/) });
    expect(await run(["plan"], "{}")).toMatchObject({ code: EXIT.error, stderr: expect.stringContaining("has neither `steps` (a Pulumi preview) nor `resource_changes` (a saved tofu plan)") });
    expect(await run(["plan", "--format", "html"], recorded)).toMatchObject({ code: EXIT.error, stderr: '--format must be text, markdown or json, got "html"\n' });
    expect(await run(["apply"])).toMatchObject({ code: EXIT.error, stderr: expect.stringContaining('unknown command "apply"') });
  });
});

/**
 * `pulumi preview --json` of native-plugin resources (recorded by test/e2e/policy-pack.test.ts):
 * `nat-pool` gets a new instance type and so a new derived name, `nat-named` (a name of its own)
 * a new instance type, and the job `nat-job` a new `owner` (its Pulumi name for `jobOwner`).
 */
const NATIVE = path.join(__dirname, "..", "..", "..", "test", "fixtures", "plan", "native.preview.json");

describe("clusterform plan on a recorded preview of the native plugin", () => {
  beforeAll(loadKinds);

  it("orders each replacement as the plugin does and reads its Pulumi names as the definitions' fields", async () => {
    const { stdout, code } = await run(["plan", "--format", "json", NATIVE]);
    expect(code).toBe(EXIT.disruptive);
    const resources = (JSON.parse(stdout) as PlanReport).resources;
    const of = (name: string) => resources.find((r) => r.name === name);
    const summary = (name: string) => [of(name)?.op, of(name)?.order, of(name)?.operations.map((o) => o.call)];
    expect(summary("nat-pool")).toEqual(["replace", "create-first", ["AddNodePool", "DeleteNodePool"]]);
    expect(summary("nat-named")).toEqual(["replace", "delete-first", ["DeleteNodePool", "AddNodePool"]]);
    expect(of("nat-job")?.operations.map((o) => [o.call, o.args.fields, o.disruptions])).toEqual([["ReplaceJob", ["jobOwner"], ["restarts"]]]);
  });
});
