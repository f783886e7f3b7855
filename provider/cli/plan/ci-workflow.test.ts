import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";

const root = path.join(__dirname, "..", "..", "..");
const ci = path.join(root, "examples", "ci");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  environment?: unknown;
  steps: Step[];
}
interface Workflow {
  on: { pull_request: { types: string[] } };
  jobs: Record<string, Job>;
}

const workflow = YAML.parse(readFileSync(path.join(ci, "github-actions.yml"), "utf8")) as Workflow;
const runs = (job: Job) => job.steps.map((s) => s.run ?? "").filter((r) => r !== "");

/**
 * examples/ci/github-actions.yml as GitHub reads it. Its engine steps live in the scripts it calls
 * (test/e2e/plan-ci.test.ts runs those scripts on real stacks), so the workflow cannot drift from
 * what the test runs: here, that it parses, runs nothing but those scripts, and gets them from the
 * installed package.
 */
describe("examples/ci/github-actions.yml", () => {
  it("re-runs the gate when a label is added or removed", () => {
    expect(workflow.on.pull_request.types).toEqual(["opened", "synchronize", "reopened", "labeled", "unlabeled"]);
  });

  it("runs the engine only through the package's scripts, which ship in the package", () => {
    const files = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).files as string[];
    expect(files).toContain("examples/ci/");
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const commands = runs(job).flatMap((r) => r.split("\n")).map((l) => l.trim());
      // No step of its own calls pulumi or clusterform: the scripts the e2e test runs do.
      expect({ job: name, direct: commands.filter((l) => /^(pulumi|npx|clusterform)\b/.test(l)) }).toEqual({ job: name, direct: [] });
      const scripts = commands.flatMap((l) => [...l.matchAll(/node_modules\/clusterform\/(examples\/ci\/[\w.-]+\.sh)/g)].map((m) => m[1]));
      expect(scripts.length).toBeGreaterThan(0);
      for (const s of scripts) expect({ script: s, exists: existsSync(path.join(root, s)) }).toEqual({ script: s, exists: true });
    }
  });

  it("plans the pull request against clusterform-local with plan-local.sh (base folder, head folder, stack, out)", () => {
    const call = runs(workflow.jobs["plan-local"]).join("\n");
    expect(call).toMatch(/bash "head\/\$PROGRAM\/node_modules\/clusterform\/examples\/ci\/plan-local\.sh" "base\/\$PROGRAM" "head\/\$PROGRAM" ci "\$RUNNER_TEMP\/plan\.md"/);
  });

  it("keeps the real endpoints' secrets behind an environment, and away from pull requests of forks", () => {
    const real = workflow.jobs["plan-real"];
    expect(real.environment).toBe("production");
    expect(real.if).toBe("github.event.pull_request.head.repo.full_name == github.repository");
    const comment = workflow.jobs["plan-local"].steps.find((s) => s.uses?.startsWith("marocchino/sticky-pull-request-comment"));
    expect(comment?.if).toBe(real.if);
  });

  it("gates on exit 1, and on 3 unless the pull request is labelled allow-disruptive", () => {
    for (const job of Object.values(workflow.jobs)) {
      const gate = job.steps.find((s) => s.name === "Gate");
      expect(gate?.if).toBe("steps.plan.outputs.code == '1' || (steps.plan.outputs.code == '3' && !contains(github.event.pull_request.labels.*.name, 'allow-disruptive'))");
    }
  });
});
