import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { writes } from "../harness/local-plane";
import { applyArgs, planArgs, type TofuDir } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";

/*
 * deletionPolicy (docs/lifecycle.md) through the real engines, as users meet it: what each engine
 * prints and where it stops. What the core decides for every kind and engine is tested in process
 * (provider/engines/deletion-policy.test.ts); here one cma-ssh cluster per engine.
 */

const oneLine = (s: string) => s.replace(/\s+/g, " ");

describe("deletionPolicy through OpenTofu (examples/hcl/cmassh)", () => {
  let t: TofuPlane;
  let dir: TofuDir;
  const policy = (value: string) =>
    writeFileSync(path.join(dir.dir, "policy_override.tf"), `resource "clusterform_cmassh_cluster" "analytics" {\n  deletion_policy = "${value}"\n}\n`);
  const clusters = async () => (await t.plane.cmasshClusters()).map((c) => c.name);

  beforeAll(async () => {
    t = await openTofuPlane();
    dir = t.open("cmassh", "deletion-policy");
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("refuses the destroy of a protected cluster at its plan, and a change that would replace it, with no platform write", async () => {
    policy("protect");
    await dir.ok(applyArgs());
    const since = await t.plane.lastSeq();
    const destroy = await dir.run(["destroy", "-auto-approve", "-input=false", "-no-color"]);
    expect(destroy.code).toBe(1);
    expect(oneLine(destroy.stderr)).toContain(
      'deleting cmassh:Cluster "analytics": DELETION_PROTECTED: its deletion_policy is "protect", so it was not deleted and nothing was sent to the platform; to delete it, set deletion_policy to "delete"',
    );
    const replace = await dir.run(planArgs({ cluster_name: "analytics-2" }));
    expect(replace.code).toBe(1);
    expect(oneLine(replace.stderr)).toContain('planning the replacement of cmassh:Cluster "analytics" (changed: name): DELETION_PROTECTED: its deletion_policy is "protect"');
    expect(writes(await t.plane.audit(since))).toEqual([]);
    expect(await clusters()).toEqual(["analytics"]);
  });

  it("abandons the cluster on destroy when told to: an update that writes nothing, then tofu forgets it and says so", async () => {
    policy("abandon");
    const since = await t.plane.lastSeq();
    const apply = await dir.ok(applyArgs());
    expect(apply.stdout).toMatch(/1 changed/);
    expect(writes(await t.plane.audit(since))).toEqual([]);
    const destroy = await dir.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]);
    expect(oneLine(destroy.stdout + destroy.stderr)).toContain('clusterform: left clusterform_cmassh_cluster "analytics" on the platform');
    // The pools, which have no policy, are deleted; the cluster stays.
    expect(writes(await t.plane.audit(since)).map((m) => m.split(" ")[0])).toEqual(["DeleteNodePool", "DeleteNodePool"]);
    expect(await clusters()).toEqual(["analytics"]);
    expect(dir.stored()).toEqual({});
  });
});

describe("deletionPolicy through Pulumi (dynamic provider)", () => {
  let t: CmasshStack;
  beforeAll(async () => {
    t = await openCmasshStack();
    await t.configure({ clusterDeletionPolicy: "protect" });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("fails the destroy of a protected cluster at its delete, before any platform call, and keeps it in the state", async () => {
    await t.stack.up();
    const since = await t.plane.lastSeq();
    await expect(t.stack.destroy()).rejects.toThrow(/DELETION_PROTECTED: its deletionPolicy is "protect", so it was not deleted and nothing was sent to the platform/);
    expect(writes(await t.plane.audit(since))).toEqual([]);
    expect((await t.plane.cmasshClusters()).length).toBe(1);
    // Still the stack's: a preview plans nothing.
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("abandons it when told to: an update with no write, then a destroy that leaves the cluster on the platform", async () => {
    await t.configure({ clusterDeletionPolicy: "abandon" });
    const since = await t.plane.lastSeq();
    expect(changingSteps(await t.stack.up()).map((s) => `${s.op} ${s.name}`)).toEqual(["update main"]);
    await t.stack.destroy();
    expect(writes(await t.plane.audit(since))).toEqual([]);
    expect((await t.plane.cmasshClusters()).length).toBe(1);
  });
});
