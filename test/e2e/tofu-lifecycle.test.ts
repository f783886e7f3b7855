import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VClusterService } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { PlanReport } from "../../provider/cli/plan/report";
import { repoRoot } from "../harness/paths";
import { applyArgs, planArgs, type TofuDir, tofuBin } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";
import { CC_PASSWORD } from "./cyclecloud-support";
import { SENLIN_USER, senlinRest } from "../harness/senlin-stack";
import { buildResourceType } from "../../provider/engines/terraform/schema";
import { allKinds } from "../../provider/kinds";
import { type Gaps, importEverything } from "./tofu-import-support";

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
  /**
   * Variables that force a replacement, the attribute shown, the operations in their order (delete
   * then create, or create first where the example asks for create_before_destroy), and what must
   * hold afterwards.
   */
  replace?: Replacement[];
  /**
   * A change made outside tofu after the in-place change: it makes it, and names the attribute
   * `plan -refresh-only` must show changing and the operation the next apply runs to undo it.
   */
  drift?: { make: (t: TofuPlane, dir: TofuDir) => Promise<void>; attribute: string; undo: string };
  /** Variables the configuration takes for the import (what the plane reports), kept for destroy. */
  importVars?: Record<string, string | number>;
  /** Known import gaps (see tofu-import-support.ts). */
  importGaps?: Gaps;
  /** The platform calls of the example's data sources, which every plan makes (refreshing or not). */
  dataReads?: string[];
  /** A cluster version the example takes from a lookup: the cluster's attribute after create and after the change. */
  version?: { attribute: string; created: string; changed: string };
  /** Operations destroy must run. */
  deletes: string[];
  /** What the platform still holds of this example (admin views); empty after destroy. */
  leftovers: (t: TofuPlane) => Promise<string[]>;
}

/**
 * One replacement: the variables (and plan arguments, e.g. `-replace=`) that force it, the attribute
 * shown as its cause (none for `-replace`), the replaced objects' calls in their order (delete then
 * create, or create first where the example asks for create_before_destroy), and what must hold after.
 */
interface Replacement {
  /** What is replaced, for the test's title. */
  what: string;
  vars: Record<string, string | number>;
  args?: string[];
  attribute?: string;
  operations: string[];
  order?: "create-first";
  verify?: (t: TofuPlane, dir: TofuDir) => Promise<void>;
}

type Listed<T> = Promise<T[]>;
const adminList = async <T>(t: TofuPlane, view: string, key: string): Listed<T> => (await t.plane.admin<Record<string, T[]>>(view))[key];

const CASES: Case[] = [
  {
    example: "cmassh",
    creates: ["CreateCluster", "AddNodePool", "AddNodePool"],
    // The cluster follows the newest patch of its line (data "clusterform_cmassh_versions"): 1.32 is 1.32.3 on the plane.
    dataReads: ["GetUpgradeClusterInformation"],
    version: { attribute: "kubernetes_version", created: "1.31.6", changed: "1.32.3" },
    change: { vars: { kubernetes_minor: "1.32", general_nodes: 3 }, operations: ["ScaleNodePool", "UpgradeCluster"] },
    replace: [{ what: "gpu pool", vars: { kubernetes_minor: "1.32", general_nodes: 3, gpu_type: "standard" }, attribute: "instance_type", operations: ["DeleteNodePool", "AddNodePool"] }],
    deletes: ["DeleteNodePool", "DeleteNodePool", "DeleteCluster"],
    leftovers: async (t) => (await t.plane.cmasshClusters()).filter((c) => c.name === "analytics").map((c) => c.name),
  },
  {
    example: "peloton",
    creates: ["CreateResourcePool", "CreateJob"],
    change: { vars: { cpu_limit: 120, image: "nginx:1.28" }, operations: ["ReplaceJob", "UpdateResourcePool"] },
    // The pool's parent named by path instead of "root": a new pool (delete first), and so a new job in it.
    replace: [{ what: "pool and its job", vars: { cpu_limit: 120, image: "nginx:1.28", parent: "/" }, attribute: "parent", operations: ["StopJob", "DeleteJob", "DeleteResourcePool", "CreateResourcePool", "CreateJob"] }],
    // The import reports the root pool as "root", however the configuration named it.
    importVars: { parent: "root" },
    deletes: ["StopJob", "DeleteJob", "DeleteResourcePool"],
    leftovers: async (t) => [
      ...(await adminList<{ path: string }>(t, "/_local/peloton/respools", "respools")).filter((p) => p.path === "/web").map((p) => p.path),
      ...(await adminList<{ name: string; state: string }>(t, "/_local/peloton/jobs", "jobs")).filter((j) => j.name === "frontend").map((j) => `${j.name}:${j.state}`),
    ],
  },
  {
    example: "vcluster",
    creates: ["CreateVCluster", "SnapshotVCluster"],
    change: { vars: { replicas: 2 }, operations: ["ScaleVCluster"] },
    // Scaled outside tofu (3 replicas where the configuration says 2): drift, undone by one scale.
    drift: {
      make: async (t) => {
        const rpc = createClient(VClusterService, createGrpcTransport({ baseUrl: t.plane.url }));
        await rpc.scaleVCluster({ name: "dev", namespace: "team-dev", replicas: 3 });
        const phase = async () => (await adminList<{ namespace: string; name: string; phase: string }>(t, "/_local/vcluster/vclusters", "vclusters")).find((v) => v.namespace === "team-dev" && v.name === "dev")?.phase;
        await expect.poll(phase, { timeout: 20_000, interval: 100 }).toBe("RUNNING");
      },
      attribute: "replicas",
      undo: "ScaleVCluster",
    },
    replace: [
      { what: "snapshot", vars: { replicas: 2, retention_hours: 48 }, attribute: "retention_hours", operations: ["DeleteSnapshot", "SnapshotVCluster"] },
      // The vcluster itself (isolation is set up at creation); the snapshot outlives it (it is stored apart).
      { what: "vcluster", vars: { replicas: 2, retention_hours: 48, isolation_mode: "lite" }, attribute: "isolation_mode", operations: ["DeleteVCluster", "CreateVCluster"] },
    ],
    // After an import the configuration writes what the server filled in (distro, version), as
    // docs/import.md says for Pulumi programs. The local plane runs a snapshot's retention on its
    // scaled clock (timeScale 0.3): it reports 48 hours as 14, and the import takes what it reports.
    importVars: { replicas: 2, retention_hours: Math.round(48 * 0.3), distro: "k3s", kubernetes_version: "1.28.0", isolation_mode: "lite" },
    deletes: ["DeleteSnapshot", "DeleteVCluster"],
    leftovers: async (t) => [
      ...(await adminList<{ namespace: string; name: string }>(t, "/_local/vcluster/vclusters", "vclusters")).filter((v) => v.namespace === "team-dev").map((v) => v.name),
      ...(await adminList<{ namespace: string; name: string }>(t, "/_local/vcluster/snapshots", "snapshots")).filter((v) => v.namespace === "team-dev").map((v) => v.name),
    ],
  },
  {
    example: "senlin",
    creates: ["CreateProfile", "CreatePolicy", "CreateCluster", "AttachClusterPolicy"],
    change: { vars: { desired_capacity: 2, team: "platform", policy_name: "web-deletion-2" }, operations: ["ResizeCluster", "UpdateProfile", "UpdatePolicy"] },
    // Resized outside tofu (3 nodes where the configuration says 2): drift, undone by one resize.
    drift: {
      make: async (t, dir) => {
        const id = String(dir.stored()["clusterform_senlin_cluster.web"].values.id);
        const rest = await senlinRest(t.plane);
        const resize = await rest.call("POST", `/v1/clusters/${id}/actions`, { resize: { adjustment_type: "EXACT_CAPACITY", number: 3 } });
        expect(await rest.waitAction(resize.location)).toBe("SUCCEEDED");
      },
      attribute: "desired_capacity",
      undo: "ResizeCluster",
    },
    // A new spec is a new profile, made first; the cluster rolls its nodes to it (UpdateCluster), then the old one goes.
    replace: [{
      what: "profile",
      vars: { desired_capacity: 2, team: "platform", policy_name: "web-deletion-2", image: "debian-12" },
      attribute: "spec",
      operations: ["CreateProfile", "UpdateCluster", "DeleteProfile"],
      order: "create-first",
      verify: async (t, dir) => {
        const resources = dir.stored();
        const profileId = resources["clusterform_senlin_profile.server"].values.id;
        expect(resources["clusterform_senlin_cluster.web"].values.profile).toBe(profileId);
        const rest = await senlinRest(t.plane);
        const nodes = (await rest.call("GET", "/v1/nodes")).body.nodes as { profile_id: string }[];
        expect(nodes.map((n) => n.profile_id)).toEqual([profileId, profileId]);
        const profiles = (await rest.call("GET", "/v1/profiles?name=web-server")).body.profiles as { id: string }[];
        expect(profiles.map((p) => p.id)).toEqual([profileId]);
      },
    },
    // A new policy spec is a new policy, made first: the cluster is bound to it, then the old one goes.
    {
      what: "policy",
      vars: { desired_capacity: 2, team: "platform", policy_name: "web-deletion-2", image: "debian-12", criteria: "YOUNGEST_FIRST" },
      attribute: "spec",
      operations: ["CreatePolicy", "DetachClusterPolicy", "AttachClusterPolicy", "DeletePolicy"],
      order: "create-first",
      verify: async (t, dir) => {
        const policyId = dir.stored()["clusterform_senlin_policy.deletion"].values.id;
        const policies = await adminList<{ id: string; name: string; clusters: string[] }>(t, "/_local/senlin/policies", "policies");
        expect(policies.filter((p) => p.name === "web-deletion-2").map((p) => `${p.id}:${p.clusters.length}`)).toEqual([`${policyId}:1`]);
      },
    },
    // The cluster has no field that forces replacement: `-replace` asks for one (delete first; same name).
    { what: "cluster", vars: { desired_capacity: 2, team: "platform", policy_name: "web-deletion-2", image: "debian-12", criteria: "YOUNGEST_FIRST" }, args: ["-replace=clusterform_senlin_cluster.web"], operations: ["DeleteCluster", "CreateCluster", "AttachClusterPolicy"] },
    ],
    // The Senlin cluster's import reports its profile and policies by name; this configuration
    // gives their ids: the first plan updates them in place, and its apply sends nothing (the
    // cluster already has that profile and those policies).
    importGaps: { "clusterform_senlin_cluster.web": ["profile", "policies"] },
    deletes: ["DeleteCluster", "DeletePolicy", "DeleteProfile"],
    leftovers: async (t) => [
      ...(await adminList<{ name: string }>(t, "/_local/senlin/clusters", "clusters")).filter((c) => c.name === "web").map((c) => c.name),
      ...(await adminList<{ name: string }>(t, "/_local/senlin/profiles", "profiles")).filter((p) => p.name === "web-server").map((p) => p.name),
      ...(await adminList<{ name: string }>(t, "/_local/senlin/policies", "policies")).filter((p) => p.name.startsWith("web-deletion")).map((p) => p.name),
    ],
  },
  {
    example: "cyclecloud",
    creates: ["CreateNodes"],
    change: { vars: { node_count: 2 }, operations: ["CreateNodes"] },
    // The machine type named instead of the nodearray's default: a new pool (delete first).
    replace: [{ what: "pool", vars: { node_count: 2, machine_type: "Standard_F2s_v2" }, attribute: "machine_type", operations: ["RemoveNodes", "CreateNodes"] }],
    deletes: ["RemoveNodes"],
    leftovers: async (t) =>
      (await adminList<{ cluster: string; nodearray: string; name: string; status: string }>(t, "/_local/cyclecloud/nodes", "nodes"))
        .filter((n) => n.cluster === "demo" && n.nodearray === "execute" && !/^(Off|Terminated|Deallocated)$/.test(n.status))
        .map((n) => `${n.name}:${n.status}`),
  },
];

const sorted = (list: string[]) => [...list].sort();

/**
 * Runs a command to its end without blocking the event loop (spawnSync would: the plane's HTTP
 * connection kept alive meanwhile is closed under it, and the next fetch fails "other side closed").
 */
function spawned(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
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

/** The attributes whose change policy is `replace`, by Terraform type, from the definitions. */
const REPLACING = new Map<string, Set<string>>();
beforeAll(async () => {
  for (const t of (await allKinds()).map((k) => buildResourceType(k))) REPLACING.set(t.name, new Set(t.attributes.filter((a) => a.forcesReplacement).map((a) => a.name)));
});

interface ResourceChange {
  address: string;
  type: string;
  change: { actions: string[]; before: Record<string, unknown> | null; after: Record<string, unknown> | null; replace_paths?: (string | number)[][] };
  action_reason?: string;
}

/**
 * Plans to a file and reads it back as JSON: every update changes only attributes whose policy is
 * an in-place update, and every replacement names as its cause only attributes whose policy is
 * `replace` (the field-policy tables, through tofu's own plan). @returns the plan's text output
 */
function expectChangesMatchPolicies(shown: { resource_changes?: ResourceChange[] }): void {
  for (const rc of shown.resource_changes ?? []) {
    const replacing = REPLACING.get(rc.type) ?? new Set<string>();
    const actions = rc.change.actions.join(",");
    if (actions === "update") {
      const before = rc.change.before ?? {};
      const after = rc.change.after ?? {};
      const changed = Object.keys(after).filter((k) => k in before && after[k] !== undefined && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
      for (const attr of changed) expect(replacing.has(attr), `${rc.address} updates ${attr} in place`).toBe(false);
    }
    if (actions === "delete,create" || actions === "create,delete") {
      const causes = (rc.change.replace_paths ?? []).map((p) => String(p[0]));
      // `tofu plan -replace=ADDR` replaces without a cause; any other replacement names one.
      if (rc.action_reason !== "replace_by_request") expect(causes.length, `${rc.address} is replaced`).toBeGreaterThan(0);
      for (const attr of causes) expect([...replacing], `${rc.address} replaced for ${attr}`).toContain(attr);
    }
  }
}

/**
 * The state file never holds a credential (they stay in the provider block or the environment),
 * and the provider's private data never holds a secret value (a kubeconfig is only in its sensitive
 * attribute, which tofu itself stores: see docs/opentofu.md on state encryption).
 */
function expectNoSecretsOutsideSensitive(dir: TofuDir): void {
  const text = readFileSync(path.join(dir.dir, "terraform.tfstate"), "utf8");
  for (const password of [SENLIN_USER.password, CC_PASSWORD]) expect(text).not.toContain(password);
  const state = JSON.parse(text) as { resources: { type: string; instances: { private?: string }[] }[] };
  for (const r of state.resources) {
    for (const instance of r.instances) {
      const privateData = Buffer.from(instance.private ?? "", "base64").toString("utf8");
      expect(privateData, r.type).not.toMatch(/kubeconfig|apiVersion|password/i);
    }
  }
}

/** The values of `attribute` of the resources in `dir`'s state that have it. */
const versionsStored = (dir: TofuDir, attribute: string) =>
  Object.values(dir.stored())
    .map((r) => r.values[attribute])
    .filter((v) => v !== undefined);

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
      // Exactly these writes (Keystone's token request authenticates the provider; it writes nothing).
      expect(sorted((await t.plane.audit(since)).filter((e) => e.api !== "keystone" && !READ.test(e.operation)).map((e) => e.operation))).toEqual(sorted(c.creates));
      const resources = dir.stored();
      expect(Object.keys(resources).length).toBeGreaterThan(0);
      for (const r of Object.values(resources)) expect(r.values.id).toEqual(expect.any(String));
      if (c.version) expect(versionsStored(dir, c.version.attribute)).toEqual([c.version.created]);
      expectNoSecretsOutsideSensitive(dir);
    });

    it("plans nothing to do, with no platform call but its data sources' reads when not refreshing", async () => {
      const since = await t.plane.lastSeq();
      const plan = await dir.run(planArgs(vars, ["-detailed-exitcode", "-refresh=false"]));
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect((await t.plane.audit(since)).map((e) => `${e.api} ${e.operation}`)).toEqual((c.dataReads ?? []).map((op) => `${c.example} ${op}`));
    });

    /**
     * Runs examples/ci/plan-tofu.sh as a CI would (`tofu plan -out`, `tofu show -json`, the
     * installed package's `clusterform plan --format markdown`), keeping the saved plan and its
     * JSON, then reads the JSON report of the same file (issue 21: the operations plan reads a
     * saved tofu plan). `CLUSTERFORM_RECORD_TOFU_PLAN=1` records cma-ssh's as the unit tests' fixture.
     */
    async function savedPlan(name: string, extra: string[] = []): Promise<{ stdout: string; markdown: string; report: PlanReport; code: number | null }> {
      const json = path.join(dir.dir, `${name}.json`);
      const cli = path.join(t.workspace, "node_modules", "clusterform", "dist", "provider", "cli", "plan", "cli.js");
      const script = path.join(repoRoot(), "examples", "ci", "plan-tofu.sh");
      const varArgs = [...Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`]), ...extra];
      const env = { ...dir.env, TOFU: tofuBin(), PLAN_FILE: path.join(dir.dir, name), PLAN_JSON: json, CLUSTERFORM_BIN: `${process.execPath} ${cli}` };
      const ci = await spawned("bash", [script, path.join(dir.dir, `${name}.md`), "--", ...varArgs], { cwd: dir.dir, env });
      if (process.env.CLUSTERFORM_RECORD_TOFU_PLAN && c.example === "cmassh") writeFileSync(path.join(repoRoot(), "test", "fixtures", "plan", `cmassh-${name}.tofu-plan.json`), scrubbed(readFileSync(json, "utf8")));
      const run = await spawned(process.execPath, [cli, "plan", "--format", "json", json], {});
      expect([run.stderr, run.status]).toEqual(["", ci.status]);
      return { stdout: ci.stderr, markdown: ci.stdout, report: JSON.parse(run.stdout) as PlanReport, code: ci.status };
    }
    /** The report's platform calls that change something, as the plane's mutation list names them. */
    const plannedMutations = (report: PlanReport) => report.resources.flatMap((r) => r.operations.map((o) => o.call)).filter((call) => !READ.test(call));

    it("changes in place with the platform's own operation, exactly the calls `clusterform plan` read from the saved plan, then plans nothing to do", async () => {
      vars = c.change.vars;
      const plan = await savedPlan("change");
      expectChangesMatchPolicies(JSON.parse(readFileSync(path.join(dir.dir, "change.json"), "utf8")));
      expect(plan.stdout).toContain("update in-place");
      expect(plan.stdout).not.toContain("forces replacement");
      // What the change may move (status, counts, ...) is the platform's to say.
      expect(plan.stdout).toContain("(known after apply)");
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
      if (c.version) expect(versionsStored(dir, c.version.attribute)).toEqual([c.version.changed]);
    });

    const d = c.drift;
    // Registered only for the platforms whose case changes something outside tofu.
    if (d) it("shows a value changed outside tofu as drift in plan -refresh-only, and the next apply undoes it with the platform's operation", async () => {
      await d.make(t, dir);
      const refresh = await dir.ok(planArgs(vars, ["-refresh-only"]));
      expect(refresh.stdout).toMatch(new RegExp(`~ ${d.attribute}\\s+= \\d+ -> \\d+`));
      const since = await t.plane.lastSeq();
      await dir.ok(applyArgs(vars));
      expect(await t.mutationsSince(since)).toContain(d.undo);
      const after = await dir.run(planArgs(vars, ["-detailed-exitcode"]));
      expect(after.code, after.stdout).toBe(0);
    });

    // Registered only for the platforms whose example has a field that forces replacement (or asks with -replace).
    for (const [i, r] of (c.replace ?? []).entries()) {
      it(`plans a replacement (${r.what}: ${r.attribute ?? r.args?.join(" ")}) and runs its calls in order`, async () => {
        vars = r.vars;
        // The first keeps the name the recorded fixture has (CLUSTERFORM_RECORD_TOFU_PLAN).
        const name = i === 0 ? "replace" : `replace-${i}`;
        const plan = await savedPlan(name, r.args);
        expectChangesMatchPolicies(JSON.parse(readFileSync(path.join(dir.dir, `${name}.json`), "utf8")));
        if (r.attribute) expect(plan.stdout).toMatch(new RegExp(`${r.attribute}\\s+=.*# forces replacement`));
        else expect(plan.stdout).toContain("will be replaced, as requested");
        const replaced = plan.report.resources.filter((x) => x.op === "replace");
        expect(replaced.map((x) => x.order)).toEqual(replaced.map(() => r.order ?? "delete-first"));
        // The replaced objects' calls, and the update a replacement brings (a Senlin cluster moved to the new profile).
        expect(sorted(plannedMutations(plan.report).filter((call) => r.operations.includes(call)))).toEqual(sorted(r.operations));
        expect(plan.code).toBe(3);
        const since = await t.plane.lastSeq();
        await dir.ok(["apply", "-input=false", "-no-color", name]);
        const ops = await t.mutationsSince(since);
        expect(ops.filter((op) => r.operations.includes(op)), ops.join(", ")).toEqual(r.operations);
        await r.verify?.(t, dir);
        const after = await dir.run(planArgs(vars, ["-detailed-exitcode"]));
        expect(after.code, after.stdout).toBe(0);
      });
    }

    it("imports every resource by the id the Pulumi import takes (the first by tofu import, the others by import blocks), with reads only, and then plans nothing to do", async () => {
      vars = { ...vars, ...c.importVars };
      await importEverything(t, dir, vars, c.importGaps, c.dataReads);
    });

    it("destroys everything", async () => {
      const since = await t.plane.lastSeq();
      await dir.ok(["destroy", "-auto-approve", "-input=false", "-no-color", ...Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`])]);
      expect(sorted((await t.mutationsSince(since)).filter((op) => /^(Delete|Remove|Stop)/.test(op)))).toEqual(sorted(c.deletes));
      expect(dir.stored()).toEqual({});
      expect(await c.leftovers(t)).toEqual([]);
    });
  });

  /**
   * A replacement that keeps the name with lifecycle { create_before_destroy = true }: tofu creates
   * first and then destroys the old object, while a create adopts an object found under its
   * identity (how a killed apply converges). Neither may delete the object the new state names.
   */
  describe("create_before_destroy with the same name", () => {
    let vc: TofuDir;
    let log: string;
    type View = { id: string; namespace: string; name: string; phase: string; spec: { isolation_mode?: string } };
    const live = async () => (await t.plane.admin<{ vclusters: View[] }>("/_local/vcluster/vclusters")).vclusters.filter((v) => v.namespace === "team-cbd");
    /** Platform calls since `since` that are no read (Keystone's token request is none either). */
    const writes = async (since: number) => (await t.plane.audit(since)).filter((e) => e.api !== "keystone" && !READ.test(e.operation)).map((e) => e.operation);
    /** The state's vcluster is the platform's one vcluster, RUNNING. */
    const expectOneVClusterNamed = async (address: string) => {
      const state = vc.stored();
      const listed = await live();
      expect(listed.map((v) => `${v.namespace}/${v.name}:${v.phase}`)).toEqual(["team-cbd/dev:RUNNING"]);
      expect(state[address]?.values.id).toBe(listed[0].id);
      return listed[0];
    };

    it("creates the vcluster example with create_before_destroy (an override file) in its own namespace", async () => {
      vc = t.open("vcluster", "cbd-vcluster");
      log = path.join(vc.dir, "requests.log");
      vc.env.CLUSTERFORM_TF_REQUEST_LOG = log;
      writeFileSync(
        path.join(vc.dir, "cbd_override.tf"),
        'resource "clusterform_vcluster_vcluster" "dev" {\n  namespace = "team-cbd"\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n',
      );
      await vc.ok(applyArgs());
      await expectOneVClusterNamed("clusterform_vcluster_vcluster.dev");
    });

    it("refuses a change that forces replacement under the same name before any platform write, and keeps the object", async () => {
      const before = await expectOneVClusterNamed("clusterform_vcluster_vcluster.dev");
      const since = await t.plane.lastSeq();
      const apply = await vc.run(applyArgs({ isolation_mode: "lite" }));
      expect(apply.code, `${apply.stdout}\nplatform writes: ${(await writes(since)).join(", ")}; vclusters: ${JSON.stringify(await live())}`).toBe(1);
      const text = apply.stderr.replace(/\s+/g, " ");
      expect(text).toContain('CreateVCluster vcluster "team-cbd/dev"');
      expect(text).toContain("Remove create_before_destroy");
      expect(text).toContain("with clusterform_vcluster_vcluster.dev");
      expect(await writes(since)).toEqual([]);
      const after = await expectOneVClusterNamed("clusterform_vcluster_vcluster.dev");
      expect([after.id, after.spec.isolation_mode]).toEqual([before.id, before.spec.isolation_mode]);
    });

    it("keeps the object that tofu apply -replace adopted instead of deleting it, warning that nothing was replaced (create and delete in one provider process)", async () => {
      const before = await expectOneVClusterNamed("clusterform_vcluster_vcluster.dev");
      writeFileSync(log, "");
      const since = await t.plane.lastSeq();
      const apply = await vc.ok([...applyArgs(), "-replace=clusterform_vcluster_vcluster.dev"]);
      expect(apply.stdout.replace(/\s+/g, " "), `platform writes: ${(await writes(since)).join(", ")}; vclusters: ${JSON.stringify(await live())}; state: ${JSON.stringify(vc.stored()["clusterform_vcluster_vcluster.dev"]?.values.id)}`).toContain(`kept clusterform_vcluster_vcluster "${before.id}" instead of deleting it`);
      expect(await writes(since)).toEqual([]);
      expect((await expectOneVClusterNamed("clusterform_vcluster_vcluster.dev")).id).toBe(before.id);
      // What the guard relies on: tofu sends the create and the deposed object's delete to one process.
      const applies = readFileSync(log, "utf8").split("\n").filter((l) => / applyResourceChange clusterform_vcluster_vcluster /.test(l));
      expect(applies.map((l) => l.split(" ").slice(2).join(" "))).toEqual(["clusterform_vcluster_vcluster create", "clusterform_vcluster_vcluster delete"]);
      expect(new Set(applies.map((l) => l.split(" ")[0])).size).toBe(1);
      const quiet = await vc.run(planArgs({}, ["-detailed-exitcode"]));
      expect(quiet.code, quiet.stdout).toBe(0);
    });

    it("keeps the object when its address changes without a moved block (create the new address, destroy the old)", async () => {
      for (const file of ["main.tf", "cbd_override.tf"]) {
        const text = readFileSync(path.join(vc.dir, file), "utf8");
        writeFileSync(path.join(vc.dir, file), text.replaceAll('"clusterform_vcluster_vcluster" "dev"', '"clusterform_vcluster_vcluster" "renamed"').replaceAll("clusterform_vcluster_vcluster.dev.", "clusterform_vcluster_vcluster.renamed."));
      }
      await vc.ok(applyArgs());
      // Whichever tofu ran first (destroying the old address, then a new vcluster; or the create
      // adopting it, then the old address forgotten), the new address names the one live vcluster.
      await expectOneVClusterNamed("clusterform_vcluster_vcluster.renamed");
      expect(Object.keys(vc.stored()).sort()).toEqual(["clusterform_vcluster_snapshot.nightly", "clusterform_vcluster_vcluster.renamed"]);
      const quiet = await vc.run(planArgs({}, ["-detailed-exitcode"]));
      expect(quiet.code, quiet.stdout).toBe(0);
    });

    it("destroys, leaving the platform empty", async () => {
      await vc.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]);
      expect(await live()).toEqual([]);
      expect(vc.stored()).toEqual({});
    });

    // cma-ssh adopts no pool of a chosen name (its API reports no labels): the create is refused by
    // the platform (ALREADY_EXISTS, nothing changed) and tofu keeps the old pool as it was.
    it("cma-ssh: refuses a node pool's replacement under the same name (a changed instance_type, and -replace), keeping the pool", async () => {
      const cm = t.open("cmassh", "cbd-cmassh");
      writeFileSync(path.join(cm.dir, "cbd_override.tf"), 'resource "clusterform_cmassh_node_pool" "gpu" {\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n');
      await cm.ok(applyArgs({ cluster_name: "cbd" }));
      const pools = async () => (await t.plane.cmasshClusters()).filter((c) => c.name === "cbd").flatMap((c) => c.pools.map((p) => `${p.name}:${p.instanceType}`).sort());
      expect(await pools()).toEqual(["general:standard", "gpu:gpu"]);
      for (const args of [applyArgs({ cluster_name: "cbd", gpu_type: "standard" }), [...applyArgs({ cluster_name: "cbd" }), "-replace=clusterform_cmassh_node_pool.gpu"]]) {
        const since = await t.plane.lastSeq();
        const apply = await cm.run(args);
        expect(apply.code, apply.stdout).toBe(1);
        const text = apply.stderr.replace(/\s+/g, " ");
        expect(text).toContain('AddNodePool pool "gpu" of cluster "cbd": EXISTS');
        expect(text).toContain("Remove create_before_destroy");
        // The one write, refused: the platform changed nothing.
        const sent = (await t.plane.audit(since)).filter((e) => !READ.test(e.operation));
        expect(sent.map((e) => e.operation)).toEqual(["AddNodePool"]);
        expect(sent[0].code).not.toBe("OK");
        expect(await pools()).toEqual(["general:standard", "gpu:gpu"]);
        expect(cm.stored()["clusterform_cmassh_node_pool.gpu"].values).toMatchObject({ id: "cbd/gpu", instance_type: "gpu" });
      }
      await cm.ok(["destroy", "-auto-approve", "-input=false", "-no-color", "-var", "cluster_name=cbd"]);
      expect((await t.plane.cmasshClusters()).filter((c) => c.name === "cbd")).toEqual([]);
    });
  });
});
