import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, runPlanCommand } from "./cli";

/**
 * `tofu show -json` of saved plans of examples/hcl/cmassh, recorded from the real tofu and
 * terraform-provider-clusterform by test/e2e/tofu-lifecycle.test.ts (CLUSTERFORM_RECORD_TOFU_PLAN=1;
 * sensitive values scrubbed): the in-place change (Kubernetes 1.31.6 -> 1.32.3, pool `general`
 * 2 -> 3 machines) and the replacement of pool `gpu` (a new instance type).
 */
const fixture = (name: string): string => readFileSync(path.join(__dirname, "..", "..", "..", "test", "fixtures", "plan", `cmassh-${name}.tofu-plan.json`), "utf8");
const change = fixture("change");
const replace = fixture("replace");

const run = (stdin: string, format = "text") => runPlanCommand(["plan", "--format", format], () => stdin);
const report = async (stdin: string) => JSON.parse((await run(stdin, "json")).stdout);

/** The recorded plan with one resource change edited. */
interface Change {
  change: { actions: string[]; after: Record<string, unknown>; after_unknown: Record<string, unknown> };
}
function edited(text: string, address: string, edit: (rc: Change) => void): string {
  const doc = JSON.parse(text);
  edit(doc.resource_changes.find((rc: { address: string }) => rc.address === address));
  return JSON.stringify(doc);
}

describe("clusterform plan on a saved tofu plan", () => {
  it("text: each changed resource by its address, the upgrade and the scale with their arguments; exit 3", async () => {
    const { stdout, stderr, code } = await run(change);
    expect([stderr, code]).toEqual(["", EXIT.disruptive]);
    expect(stdout).toBe(
      [
        "! update clusterform_cmassh_cluster.analytics (cmassh:Cluster)",
        "    1. GetUpgradeClusterInformation analytics: checks that 1.32.3 is offered (fails the update before any change if not)",
        "       version=1.32.3",
        "    2. UpgradeCluster analytics: upgrades Kubernetes 1.31.6 -> 1.32.3 [UPGRADE]",
        "       from=1.31.6 to=1.32.3",
        "  update clusterform_cmassh_node_pool.general (cmassh:NodePool)",
        "    1. ScaleNodePool analytics/general: scales from 2 to 3 machine(s)",
        "       count=3",
        "2 resource(s) change, 3 platform call(s), 1 disruptive.",
        "",
      ].join("\n"),
    );
  });

  it("a replacement: delete first (tofu's default order), what it deletes, the attribute that forces it", async () => {
    const r = await report(replace);
    const gpu = r.resources.find((x: { urn: string }) => x.urn === "clusterform_cmassh_node_pool.gpu");
    expect([gpu.op, gpu.order, gpu.replaces]).toEqual(["replace", "delete-first", ["instanceType"]]);
    expect(gpu.operations.map((o: { call: string; target: string; disruptions?: string[] }) => [o.call, o.target, o.disruptions ?? []])).toEqual([
      ["DeleteNodePool", "analytics/gpu", ["deletes", "capacity-removed"]],
      ["AddNodePool", "analytics/gpu", []],
    ]);
    expect(gpu.operations[1].args).toEqual({ count: 1, instanceType: "standard" });
    expect((await run(replace, "markdown")).stdout).toContain("| ⚠️ | `clusterform_cmassh_node_pool.gpu` cmassh:NodePool | replace (delete-first) | 1. `DeleteNodePool analytics/gpu`");
  });

  it("create_before_destroy (actions create, delete) creates the new object first", async () => {
    const flipped = edited(replace, "clusterform_cmassh_node_pool.gpu", (rc) => {
      rc.change.actions = ["create", "delete"];
    });
    const gpu = (await report(flipped)).resources.find((x: { urn: string }) => x.urn === "clusterform_cmassh_node_pool.gpu");
    expect([gpu.order, gpu.operations.map((o: { call: string }) => o.call)]).toEqual(["create-first", ["AddNodePool", "DeleteNodePool"]]);
  });

  it("a value known only after apply is reported unknown, not guessed", async () => {
    const unknown = edited(change, "clusterform_cmassh_node_pool.general", (rc) => {
      delete rc.change.after.node_count;
      rc.change.after_unknown = { ...rc.change.after_unknown, node_count: true };
    });
    const general = (await report(unknown)).resources.find((x: { urn: string }) => x.urn === "clusterform_cmassh_node_pool.general");
    expect(general.operations.map((o: { call: string; disruptions?: string[] }) => [o.call, o.disruptions])).toEqual([["ScaleNodePool", ["unknown-values"]]]);
  });

  it("no-op and read steps are left out; another provider's resource is listed with its step only; nothing to do exits 0", async () => {
    const doc = JSON.parse(change);
    doc.resource_changes.push({ address: "null_resource.x", mode: "managed", type: "null_resource", name: "x", change: { actions: ["delete"], before: { id: "1" }, after: null } });
    const r = await report(JSON.stringify(doc));
    expect(r.resources.map((x: { urn: string; op: string; known: boolean }) => [x.urn, x.op, x.known])).toEqual([
      ["clusterform_cmassh_cluster.analytics", "update", true],
      ["clusterform_cmassh_node_pool.general", "update", true],
      ["null_resource.x", "delete", false],
    ]);
    const quiet = JSON.parse(change);
    for (const rc of quiet.resource_changes) rc.change.actions = ["no-op"];
    expect(await run(JSON.stringify(quiet))).toEqual({ stdout: "No changes.\n", stderr: "", code: EXIT.noChanges });
  });
});
