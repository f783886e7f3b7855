import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EngineStack, engineEnv, openStack, pulumiBinDir } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { repoRoot, workDir } from "../harness/paths";
import { clusterformTarball, copyProgram, installWorkspace, packPackage } from "../harness/workspace";

const execFileAsync = promisify(execFile);

/** What one CLI run printed and how it ended. */
interface CliRun {
  code: number;
  output: string;
  stdout: string;
}

/** The policies a run's output reports as violated, as `policy resource` (one per line under "Policies:"). */
function violations(output: string): string[] {
  const found = [...output.matchAll(/\[(?:mandatory|advisory)\]\s+(clusterform-[\w-]+)\s+\(\S+: ([^)]*)\)/g)].map((m) => `${m[1]} ${m[2].trim()}`);
  return [...new Set(found)].sort();
}

/**
 * The policy pack as users get it (the packed package's `policy/` folder, @pulumi/policy installed
 * beside it), run by the real engine: `pulumi up` and `pulumi preview --policy-pack` of one stack
 * holding dynamic and native resources, each rule broken on one resource and kept on another.
 */
describe("policy pack: each rule blocks what it should and passes what it should; preview rows name the planned calls", () => {
  let plane: LocalPlane;
  let stack: EngineStack;
  let programDir: string;
  let analyzer: string;
  let configDir: string;
  let workspace: string;

  /** Runs the CLI in the program's folder with the pack; `config` is written as `--policy-pack-config`. */
  async function run(command: "preview" | "up", config?: Record<string, unknown> | "no-pack", extra: string[] = []): Promise<CliRun> {
    const args = [command, "--stack", stack.stack.name, "--non-interactive", "--color", "never", ...extra];
    if (config !== "no-pack") args.push("--policy-pack", analyzer);
    if (command === "up") args.push("--yes", "--skip-preview");
    if (config && config !== "no-pack") {
      const file = path.join(configDir, `config-${Date.now()}.json`);
      writeFileSync(file, JSON.stringify(config));
      args.push("--policy-pack-config", file);
    }
    const env = { ...process.env, ...engineEnv(), PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}` };
    try {
      const { stdout, stderr } = await execFileAsync(path.join(pulumiBinDir(), "pulumi"), args, { cwd: programDir, env, maxBuffer: 64 * 1024 * 1024 });
      return { code: 0, output: `${stdout}\n${stderr}`, stdout };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      if (typeof e.code !== "number") throw err;
      return { code: e.code, output: `${e.stdout}\n${e.stderr}`, stdout: e.stdout ?? "" };
    }
  }

  async function configure(values: Record<string, unknown>): Promise<void> {
    await stack.configure(Object.fromEntries(Object.entries(values).map(([k, v]) => [`test:${k}`, v === undefined ? undefined : { value: JSON.stringify(v) }])));
  }

  const COMPLIANT = { natPlane: undefined, natPoolCount: undefined, natPoolType: undefined, natNamedType: undefined, natJobOwner: undefined, withDynCluster: undefined, dynVersion: undefined, dynPoolCount: undefined, jobs: undefined };

  beforeAll(async () => {
    const policySdk = packPackage(path.join(repoRoot(), "node_modules", "@pulumi", "policy"), "pulumi-policy");
    workspace = installWorkspace("policy-pack", { clusterform: clusterformTarball(), "@pulumi/policy": policySdk });
    plane = await startLocalPlane({ workspace, timeScale: 0.2 });
    programDir = copyProgram(workspace, "policy");
    analyzer = path.join(workspace, "node_modules", "clusterform", "policy", "analyzer");
    configDir = mkdtempSync(path.join(workDir(), "policy-config-"));
    stack = await openStack({ programDir, config: { "clusterform:endpoint": { value: plane.url } } });
    const up = await run("up");
    expect(up.output).not.toMatch(/Policy Violations|\[mandatory\]/);
    expect(up.code).toBe(0);
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("breaking every rule fails the preview and names each rule and resource; the changes that keep to them pass", async () => {
    await configure({ natPlane: "gpu", dynVersion: "1.32.0", dynPoolCount: 1, jobs: { web: { instanceCount: 4, batchSize: 4, image: "nginx:1.28" }, small: { instanceCount: 4, batchSize: 2 } } });
    const offered = { "clusterform-version-offered": { offered: { "cmassh:Cluster": ["1.30.10", "1.31.6"] } } };
    const result = await run("preview", offered);
    // A mandatory violation: the documented exit code 1 (docs/policy-pack.md).
    expect(result.code).toBe(1);
    expect(violations(result.output)).toEqual([
      "clusterform-cluster-replacement nat-cluster",
      "clusterform-max-scale-down dyn-pool",
      "clusterform-rolling-update-batch-size web",
      "clusterform-version-offered dyn-cluster",
    ]);
    expect(result.output).toContain("cmassh:Cluster nat-cluster would be replaced because name, controlPlane changed; the new one is created first");
    expect(result.output).toContain("cmassh:NodePool dyn-pool would remove 4 instance(s) or node(s) in one change (scales down from 5 to 1 machine(s): 4 removed); at most 2 allowed");
    expect(result.output).toContain("rolls 4 instance(s) in batches of 4 (1 batch(es)); at least 2 required");
    expect(result.output).toContain("would run version 1.32.0, which is not offered (offered: 1.30.10, 1.31.6");
  });

  it("preview names the planned platform calls on each changed row, in both engines, and says nothing on unchanged rows", async () => {
    const { code, output } = await run("preview", "no-pack");
    expect(code).toBe(0);
    const rows = output.split("\n");
    const row = (pattern: RegExp) => rows.filter((line) => pattern.test(line));
    expect(row(/^ ~ {2}pulumi-nodejs:dynamic\/cmassh:NodePool dyn-pool update /)).toContain(
      " ~  pulumi-nodejs:dynamic/cmassh:NodePool dyn-pool update [diff: ~count]; plan: ScaleNodePool: scales down from 5 to 1 machine(s): 4 removed [capacity removed]",
    );
    expect(row(/^ ~ {2}pulumi-nodejs:dynamic\/cmassh:Cluster dyn-cluster update /).join("\n")).toContain(
      "plan: GetUpgradeClusterInformation: checks that 1.32.0 is offered (fails the update before any change if not); UpgradeCluster: upgrades Kubernetes 1.30.10 -> 1.32.0 [upgrade]",
    );
    expect(row(/^ ~ {2}pulumi-nodejs:dynamic\/peloton:StatelessJob web update /).join("\n")).toContain("plan: ReplaceJob: rolling update of 4 instance(s) in batches of 4 (1 batch(es)): defaultSpec [restarts]");
    // The native plugin's rows: a replacement, its order and what it deletes.
    expect(row(/^ \+- {1}clusterform:cmassh:Cluster nat-cluster replace /).join("\n")).toContain(
      "plan: replace (name, controlPlane), create first: CreateCluster: creates a cluster running Kubernetes 1.30.10; DeleteCluster: deletes the cluster and every machine in it [deletes, capacity removed]",
    );
    expect(row(/^ \+- {1}clusterform:cmassh:NodePool nat-pool replace /).join("\n")).toContain("plan: replace (clusterName, name), create first: AddNodePool: adds a pool of 2 standard machine(s); DeleteNodePool:");
    // Unchanged resources get no line, and the lines are not repeated in the Diagnostics.
    expect(rows.filter((line) => / respool( |$)/.test(line) && line.includes("plan:"))).toEqual([]);
    const diagnostics = output.includes("Diagnostics:") ? output.slice(output.indexOf("Diagnostics:")) : "";
    expect(diagnostics).not.toContain("plan:");
  });

  it("deleting a cluster is refused unless allowed (advisory: listed, exit 0); a scale-down within the limit passes", async () => {
    await configure({ ...COMPLIANT, withDynCluster: false, natPoolCount: 1 });
    const refused = await run("preview");
    expect(refused.code).toBe(1);
    // A stack policy: the engine lists it under the stack, the message names the cluster.
    expect(violations(refused.output)).toEqual([`clusterform-cluster-deletion policy-${stack.stack.name}`]);
    expect(refused.output).toContain('cmassh:Cluster dyn-cluster would be deleted (deletes the cluster and every machine in it); add its name to the config value "allow" of clusterform-cluster-deletion');
    // Advisory: listed, and the preview still succeeds.
    const advisory = await run("preview", { "clusterform-cluster-deletion": { enforcementLevel: "advisory" } });
    expect(advisory.output).toMatch(/\[advisory\]\s+clusterform-cluster-deletion/);
    expect(advisory.code).toBe(0);
    const allowed = await run("preview", { "clusterform-cluster-deletion": { allow: ["dyn-cluster"] } });
    expect(violations(allowed.output)).toEqual([]);
    expect(allowed.code).toBe(0);
  });
  it("`clusterform plan` reads the native plugin's preview as its `up` runs it: each replacement's order, a job owner's ReplaceJob", async () => {
    // Three native changes: a pool with a derived name replaced (the new name lets the plugin create
    // first), a pool under its own name replaced (same identity: the plugin deletes first), and a
    // job's `owner` (the definition's `jobOwner`: a ReplaceJob).
    await configure({ ...COMPLIANT, natPoolType: "gpu", natNamedType: "gpu", natJobOwner: "bob" });
    const preview = await run("preview", "no-pack", ["--json"]);
    expect(preview.code).toBe(0);
    const file = path.join(configDir, "native-preview.json");
    writeFileSync(file, preview.stdout);
    // CLUSTERFORM_RECORD_NATIVE_PREVIEW=<file> keeps it (test/fixtures/plan/native.preview.json, read by provider/cli/plan/cli.test.ts).
    if (process.env.CLUSTERFORM_RECORD_NATIVE_PREVIEW) writeFileSync(process.env.CLUSTERFORM_RECORD_NATIVE_PREVIEW, preview.stdout);
    // The preview's JSON has one `replace` step per replacement and does not say its order: the
    // `up` below shows it, in the order of the platform's calls.

    // The installed package's command on that preview.
    const cli = path.join(workspace, "node_modules", ".bin", "clusterform");
    const planned = await execFileAsync(cli, ["plan", "--format", "json", file]).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? "" }),
    );
    expect(planned.code).toBe(3);
    type Reported = { name: string; op: string; order?: string; operations: { call: string; target?: string; args: Record<string, unknown> }[] };
    const report = JSON.parse(planned.stdout) as { resources: Reported[] };
    const of = (name: string) => report.resources.find((r) => r.name === name);
    const calls = (name: string) => (of(name)?.operations ?? []).map((o) => `${o.call} ${o.target}`);
    expect([of("nat-pool")?.op, of("nat-pool")?.order, of("nat-named")?.op, of("nat-named")?.order]).toEqual(["replace", "create-first", "replace", "delete-first"]);
    expect(calls("nat-pool").map((c) => c.split(" ")[0])).toEqual(["AddNodePool", "DeleteNodePool"]);
    expect(calls("nat-named")).toEqual([expect.stringMatching(/^DeleteNodePool \S+\/named$/), expect.stringMatching(/^AddNodePool \S+\/named$/)]);
    expect(of("nat-job")?.operations.map((o) => [o.call, o.args.fields])).toEqual([["ReplaceJob", ["jobOwner"]]]);

    // The policy pack gives the same orders (its replacement rule, told to guard pools).
    const guarded = await run("preview", { "clusterform-cluster-replacement": { kinds: ["cmassh:NodePool"] } });
    expect(guarded.code).toBe(1);
    expect(guarded.output).toMatch(/cmassh:NodePool nat-pool would be replaced because [\w, ]*instanceType[\w, ]* changed; the new one is created first/);
    expect(guarded.output).toContain("cmassh:NodePool nat-named would be replaced because instanceType changed; the old one is deleted first");

    // The `up` makes exactly those calls, in that order: the engine took the orders reported.
    const since = await plane.lastSeq();
    const up = await run("up", "no-pack");
    expect(up.code).toBe(0);
    const audit = (await plane.audit(since)).filter((e) => e.code === "OK" && !/^(Get|List|Query|Lookup|Watch)/.test(e.operation));
    for (const name of ["nat-pool", "nat-named", "nat-job"]) {
      const targets = new Set((of(name)?.operations ?? []).map((o) => o.target));
      const made = audit.filter((e) => targets.has(e.target)).map((e) => `${e.operation} ${e.target}`);
      expect({ name, made }).toEqual({ name, made: calls(name) });
    }
  });
});
