import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanReport } from "../../provider/plan/report";
import { repoRoot } from "../harness/paths";
import { applyArgs, planArgs, type TofuDir, tofuBin } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";

/**
 * Every kind through the real `tofu`, one working directory per platform (examples/hcl/<platform>):
 * create, a plan with nothing to do and no platform call, one in-place change whose platform
 * operation the audit shows, a replacement where the example has one, and destroy.
 */
interface Case {
  example: string;
  /** Operations the create must run. */
  creates: string[];
  /** Variables of the in-place change, and the operations it must run (and nothing that creates or deletes). */
  change: { vars: Record<string, string | number>; operations: string[] };
  /** Variables that force a replacement, the attribute shown, and the operations (delete, then create). */
  replace?: { vars: Record<string, string | number>; attribute: string; operations: string[] };
  /** Operations destroy must run. */
  deletes: string[];
}

const CASES: Case[] = [
  {
    example: "cmassh",
    creates: ["CreateCluster", "AddNodePool", "AddNodePool"],
    change: { vars: { kubernetes_version: "1.32.3", general_nodes: 3 }, operations: ["ScaleNodePool", "UpgradeCluster"] },
    replace: { vars: { kubernetes_version: "1.32.3", general_nodes: 3, gpu_type: "standard" }, attribute: "instance_type", operations: ["DeleteNodePool", "AddNodePool"] },
    deletes: ["DeleteNodePool", "DeleteNodePool", "DeleteCluster"],
  },
  {
    example: "peloton",
    creates: ["CreateResourcePool", "CreateJob"],
    change: { vars: { cpu_limit: 120, image: "nginx:1.28" }, operations: ["ReplaceJob", "UpdateResourcePool"] },
    deletes: ["StopJob", "DeleteJob", "DeleteResourcePool"],
  },
  {
    example: "vcluster",
    creates: ["CreateVCluster", "SnapshotVCluster"],
    change: { vars: { replicas: 2 }, operations: ["ScaleVCluster"] },
    replace: { vars: { replicas: 2, retention_hours: 48 }, attribute: "retention_hours", operations: ["DeleteSnapshot", "SnapshotVCluster"] },
    deletes: ["DeleteSnapshot", "DeleteVCluster"],
  },
  {
    example: "senlin",
    creates: ["CreateCluster"],
    change: { vars: { desired_capacity: 2 }, operations: ["ResizeCluster"] },
    deletes: ["DeleteCluster"],
  },
  {
    example: "cyclecloud",
    creates: ["CreateNodes"],
    change: { vars: { node_count: 2 }, operations: ["CreateNodes"] },
    deletes: ["RemoveNodes"],
  },
];

const sorted = (list: string[]) => [...list].sort();
/** Calls that only read, as the plane's mutation list leaves them out. */
const READ = /^(Get|List|Query|Watch|Describe|Browse)/;

/** A saved plan's `tofu show -json` with every sensitive value replaced: a recorded fixture holds no secret. */
function scrubbed(shown: string): string {
  const doc = JSON.parse(shown);
  const scrub = (value: unknown, sensitive: unknown): unknown => {
    if (sensitive === true) return value === null ? null : "(sensitive)";
    if (typeof sensitive !== "object" || sensitive === null || typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...(value as Record<string, unknown>) };
    for (const [k, s] of Object.entries(sensitive)) out[k] = scrub(out[k], s);
    return out;
  };
  for (const rc of doc.resource_changes ?? []) {
    rc.change.before = scrub(rc.change.before, rc.change.before_sensitive);
    rc.change.after = scrub(rc.change.after, rc.change.after_sensitive);
  }
  // Outputs (a kubeconfig among them) and the state copies are not read by the report.
  for (const key of ["prior_state", "planned_values", "configuration", "relevant_attributes", "output_changes"]) delete doc[key];
  return `${JSON.stringify(doc, null, 2)}\n`;
}

describe("terraform-provider-clusterform: every kind through tofu", () => {
  let t: TofuPlane;
  beforeAll(async () => {
    t = await openTofuPlane();
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  describe.each(CASES)("$example", (c) => {
    let dir: TofuDir;
    let vars: Record<string, string | number> = {};

    it("creates every resource, running the platform's create operations once each", async () => {
      dir = t.open(c.example, `lifecycle-${c.example}`);
      const since = await t.plane.lastSeq();
      await dir.ok(applyArgs());
      expect(sorted((await t.mutationsSince(since)).filter((op) => !/^(Delete|Remove)/.test(op)))).toEqual(expect.arrayContaining(sorted(c.creates)));
      const resources = await dir.resources();
      expect(Object.keys(resources).length).toBeGreaterThan(0);
      for (const r of Object.values(resources)) expect(r.values.id).toEqual(expect.any(String));
    });

    it("plans nothing to do, with zero platform calls when not refreshing", async () => {
      const since = await t.plane.lastSeq();
      const plan = await dir.run(planArgs(vars, ["-detailed-exitcode", "-refresh=false"]));
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(await t.plane.audit(since)).toEqual([]);
    });

    /**
     * Runs examples/ci/plan-tofu.sh as a CI would (`tofu plan -out`, `tofu show -json`, the
     * installed package's `clusterform plan --format markdown`), keeping the saved plan and its
     * JSON, then reads the JSON report of the same file (issue 21: the operations plan reads a
     * saved tofu plan). `CLUSTERFORM_RECORD_TOFU_PLAN=1` records cma-ssh's as the unit tests' fixture.
     */
    async function savedPlan(name: string): Promise<{ stdout: string; markdown: string; report: PlanReport; code: number | null }> {
      const json = path.join(dir.dir, `${name}.json`);
      const cli = path.join(t.workspace, "node_modules", "clusterform", "dist", "provider", "plan", "cli.js");
      const script = path.join(repoRoot(), "examples", "ci", "plan-tofu.sh");
      const varArgs = Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`]);
      const env = { ...dir.env, TOFU: tofuBin(), PLAN_FILE: path.join(dir.dir, name), PLAN_JSON: json, CLUSTERFORM_BIN: `${process.execPath} ${cli}` };
      const ci = spawnSync("bash", [script, path.join(dir.dir, `${name}.md`), "--", ...varArgs], { cwd: dir.dir, env, encoding: "utf8" });
      if (process.env.CLUSTERFORM_RECORD_TOFU_PLAN && c.example === "cmassh") writeFileSync(path.join(repoRoot(), "test", "fixtures", "plan", `cmassh-${name}.tofu-plan.json`), scrubbed(readFileSync(json, "utf8")));
      const run = spawnSync(process.execPath, [cli, "plan", "--format", "json", json], { encoding: "utf8" });
      expect([run.stderr, run.status]).toEqual(["", ci.status]);
      return { stdout: ci.stderr, markdown: ci.stdout, report: JSON.parse(run.stdout) as PlanReport, code: ci.status };
    }
    /** The report's platform calls that change something, as the plane's mutation list names them. */
    const plannedMutations = (report: PlanReport) => report.resources.flatMap((r) => r.operations.map((o) => o.call)).filter((call) => !READ.test(call));

    it("changes in place with the platform's own operation, exactly the calls `clusterform plan` read from the saved plan, then plans nothing to do", async () => {
      vars = c.change.vars;
      const plan = await savedPlan("change");
      expect(plan.stdout).toContain("update in-place");
      expect(plan.stdout).not.toContain("forces replacement");
      expect(plan.report.resources.map((r) => r.op)).toEqual(plan.report.resources.map(() => "update"));
      expect(plan.markdown).toContain(`| \`${plan.report.resources[0].name}\` ${plan.report.resources[0].type} | update | 1. \`${plan.report.resources[0].operations[0].call}`);
      expect(plan.code).toBe(plan.report.summary.disruptive > 0 ? 3 : 2);
      const since = await t.plane.lastSeq();
      await dir.ok(["apply", "-input=false", "-no-color", "change"]);
      const ops = await t.mutationsSince(since);
      // Keystone's token request (Senlin) authenticates the provider; it is no platform operation.
      const platform = (await t.plane.audit(since)).filter((e) => e.api !== "keystone" && !READ.test(e.operation)).map((e) => e.operation);
      expect(sorted(platform)).toEqual(sorted(plannedMutations(plan.report)));
      expect(ops).toEqual(expect.arrayContaining(c.change.operations));
      expect(ops.filter((op) => /^(Create(Cluster|Job|ResourcePool|VCluster)|Delete|AddNodePool)/.test(op))).toEqual([]);
      const after = await dir.run(planArgs(vars, ["-detailed-exitcode"]));
      expect(after.code, after.stdout).toBe(0);
    });

    const r = c.replace;
    // Registered only for the platforms whose example has a field that forces replacement.
    if (r) it("plans a replacement for a field whose policy is replace, and runs delete then create", async () => {
      vars = r.vars;
      const plan = await savedPlan("replace");
      expect(plan.stdout).toMatch(new RegExp(`${r.attribute}\\s+=.*# forces replacement`));
      const replaced = plan.report.resources.filter((x) => x.op === "replace");
      expect(replaced.map((x) => [x.order, plannedMutations({ ...plan.report, resources: [x] })])).toEqual([["delete-first", r.operations]]);
      expect(plan.code).toBe(3);
      const since = await t.plane.lastSeq();
      await dir.ok(["apply", "-input=false", "-no-color", "replace"]);
      expect((await t.mutationsSince(since)).filter((op) => r.operations.includes(op))).toEqual(r.operations);
    });

    it("destroys everything", async () => {
      const since = await t.plane.lastSeq();
      await dir.ok(["destroy", "-auto-approve", "-input=false", "-no-color", ...Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`])]);
      expect(sorted((await t.mutationsSince(since)).filter((op) => /^(Delete|Remove|Stop)/.test(op)))).toEqual(sorted(c.deletes));
      expect(await dir.resources()).toEqual({});
    });
  });
});
