import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyArgs, planArgs, type TofuDir } from "../harness/tofu";
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

    it("changes in place with the platform's own operation, then plans nothing to do", async () => {
      vars = c.change.vars;
      const plan = await dir.ok(planArgs(vars));
      expect(plan.stdout).toContain("update in-place");
      expect(plan.stdout).not.toContain("forces replacement");
      const since = await t.plane.lastSeq();
      await dir.ok(applyArgs(vars));
      const ops = await t.mutationsSince(since);
      expect(ops).toEqual(expect.arrayContaining(c.change.operations));
      expect(ops.filter((op) => /^(Create(Cluster|Job|ResourcePool|VCluster)|Delete|AddNodePool)/.test(op))).toEqual([]);
      const after = await dir.run(planArgs(vars, ["-detailed-exitcode"]));
      expect(after.code, after.stdout).toBe(0);
    });

    const r = c.replace;
    // Registered only for the platforms whose example has a field that forces replacement.
    if (r) it("plans a replacement for a field whose policy is replace, and runs delete then create", async () => {
      vars = r.vars;
      const plan = await dir.ok(planArgs(vars));
      expect(plan.stdout).toMatch(new RegExp(`${r.attribute}\\s+=.*# forces replacement`));
      const since = await t.plane.lastSeq();
      await dir.ok(applyArgs(vars));
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
