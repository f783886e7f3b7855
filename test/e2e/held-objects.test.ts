import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planeInventory, startAllKindsPlane } from "../harness/all-kinds";
import { changingSteps, destroyLeftovers, type EngineStack, openStack, type RunResult } from "../harness/engine";
import type { AuditEntry, LocalPlane } from "../harness/local-plane";
import { applyArgs } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";
import { copyProgram, packageWorkspace } from "../harness/workspace";

// No engine or process combination deletes an object another resource of the stack holds
// (provider/core/holds.ts), through the real Pulumi engine: a stack moved between the dynamic and
// the native classes with no alias written by the program, a resource whose type token changed,
// and two resources that derive one platform name. Program: test/e2e/programs/held.

const READS = /^(Get|List|Describe|Watch|Query|Lookup)/;
/** Platform writes in audit entries (calls that answered or failed alike). */
const writesOf = (entries: AuditEntry[]) => entries.filter((e) => !READS.test(e.operation)).map((e) => `${e.api}:${e.operation}`);
const steps = (r: RunResult) => changingSteps(r).filter((s) => !s.type.startsWith("pulumi:providers:")).map((s) => `${s.op} ${s.name}`).sort();

interface Live {
  clusters: string[];
  pools: string[];
  vclusters: string[];
}

describe("held objects: a stack moved between the ways a program declares its resources", () => {
  let plane: LocalPlane;
  let workspace: string;
  const stacks: EngineStack[] = [];

  const live = async (): Promise<Live> => {
    const inventory = await planeInventory(plane);
    return { clusters: inventory["cmassh:Cluster"], pools: inventory["cmassh:NodePool"], vclusters: inventory["vcluster:VCluster"] };
  };
  const open = async (shape: string, extra: Record<string, string> = {}) => {
    const stack = await openStack({
      programDir: copyProgram(workspace, "held"),
      config: { "clusterform:endpoint": { value: plane.url }, "test:shape": { value: shape }, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])) },
    });
    stacks.push(stack);
    return stack;
  };
  /** The resources of the checkpoint as stored (URNs, types, ids and these outputs are no secrets): read without a CLI run. */
  const stored = async (stack: EngineStack): Promise<{ urn: string; id?: string; type: string; outputs?: Record<string, unknown> }[]> =>
    JSON.parse(await stack.storedState()).checkpoint?.latest?.resources ?? [];
  const idsByName = async (stack: EngineStack) =>
    Object.fromEntries((await stored(stack)).filter((r) => r.id).map((r) => [r.urn.split("::").pop(), `${r.type} ${r.id}`]));

  beforeAll(async () => {
    workspace = packageWorkspace();
    plane = await startAllKindsPlane(workspace, 0.2);
  });
  afterAll(async () => {
    for (const stack of stacks) await destroyLeftovers(stack);
    await plane?.stop();
  });

  // The stack the first test creates and moves back to the dynamic classes, which the second one retypes.
  let moved: EngineStack;

  it("moves dynamic -> native -> dynamic with no alias in the program: no replacement, no platform write", async () => {
    const stack = await open("dynamic");
    moved = stack;
    expect(steps(await stack.up())).toEqual(["create c", "create p", "create vc"]);
    const before = await live();
    expect([before.clusters.length, before.pools.length, before.vclusters.length]).toEqual([1, 1, 1]);
    const dynamicIds = await idsByName(stack);

    await stack.setConfig("test:shape", "native");
    const since = await plane.lastSeq();
    const preview = await stack.preview();
    expect(steps(preview).filter((s) => /^(create|delete|replace|create-replacement|delete-replaced)/.test(s))).toEqual([]);
    await stack.up();
    expect(writesOf(await plane.audit(since))).toEqual([]);
    expect(await live()).toEqual(before);
    const nativeIds = await idsByName(stack);
    for (const name of ["c", "p", "vc"]) expect(nativeIds[name].split(" ")[1], name).toBe(dynamicIds[name].split(" ")[1]);
    expect(nativeIds.c.split(" ")[0]).toBe("clusterform:cmassh:Cluster");

    // And back: the dynamic provider rewrites the plugin's state in its own form, from reads alone.
    await stack.setConfig("test:shape", "dynamic");
    const back = await plane.lastSeq();
    const previewBack = await stack.preview();
    expect(steps(previewBack).filter((s) => /^(create|delete|replace|create-replacement|delete-replaced)/.test(s))).toEqual([]);
    await stack.up();
    expect(writesOf(await plane.audit(back))).toEqual([]);
    expect(await live()).toEqual(before);
    const state = (await stored(stack)).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(state.map((r) => typeof r.outputs?.__provider).sort()).toEqual(["string", "string", "string"]);
    expect(steps(await stack.preview())).toEqual([]);
  });

  it("keeps the objects when their type token changes with no alias: the new resources adopt them, the old ones' deletes are kept, then destroys", async () => {
    // The first test's stack, on the dynamic classes again, with its three objects.
    const stack = moved;
    const before = await live();
    expect([before.clusters.length, before.pools.length, before.vclusters.length]).toEqual([1, 1, 1]);
    const dynamicIds = await idsByName(stack);
    await stack.setConfig("test:shape", "retyped");
    const since = await plane.lastSeq();
    const result = await stack.up();
    // The engine creates the new type and deletes the old; the pool is simply removed from the program.
    expect(steps(result)).toEqual(["create c", "create vc", "delete c", "delete p", "delete vc"]);
    const writes = writesOf(await plane.audit(since));
    expect(writes.filter((w) => /Delete(Cluster|VCluster)$/.test(w))).toEqual([]);
    expect(writes.filter((w) => /Create(Cluster|VCluster)$/.test(w))).toEqual([]);
    expect(writes).toEqual(["cmassh:DeleteNodePool"]);
    expect(result.stdout).toMatch(/kept "[^"]+" \(cmassh:Cluster\): urn:pulumi:[^ ]+clusterform:cmassh:Cluster::c holds it \(it adopted it in this run\)/);
    const after = await live();
    expect([after.clusters, after.vclusters]).toEqual([before.clusters, before.vclusters]);
    const retyped = await idsByName(stack);
    expect([retyped.c, retyped.vc]).toEqual([dynamicIds.c.replace("pulumi-nodejs:dynamic/", "clusterform:"), dynamicIds.vc.replace("pulumi-nodejs:dynamic/", "clusterform:")]);
    expect(steps(await stack.preview())).toEqual([]);
    await stack.destroy();
    expect(await live()).toEqual({ clusters: [], pools: [], vclusters: [] });
  });

  // The engine registers the two twins in whichever order their parents resolve. A twin created after
  // the engine diffed the other is refused before any write (the other holds the cluster in this run);
  // one created before that diff finds no holder and adopts the cluster with no write, leaving two
  // entries naming one object (docs/lifecycle.md). Either
  // way nothing is written, and while one of them remains, removing the other deletes nothing.
  it.each(["native", "dynamic"])("a second resource deriving the same platform name is refused, or adopted with no write, and never deletes the first one's object (second twin %s)", async (second) => {
    const stack = await open("twins", { "test:second": second });
    const already = (await live()).clusters;
    await stack.up();
    const made = (await live()).clusters.filter((c) => !already.includes(c));
    expect(made).toHaveLength(1);
    await stack.setConfig("test:both", "true");
    const since = await plane.lastSeq();
    const failed = await stack.up().then(
      () => undefined,
      (err: Error) => err,
    );
    expect(writesOf(await plane.audit(since))).toEqual([]);
    expect((await live()).clusters.filter((c) => !already.includes(c))).toEqual(made);
    const clusterIds = async () => (await stored(stack)).filter((r) => r.type.endsWith("cmassh:Cluster")).map((r) => r.id);
    if (failed) {
      expect(failed.message).toMatch(/is held by another resource of this run, urn:pulumi:[^ ]+::test:index:GroupA\$clusterform:cmassh:Cluster::main/);
      expect(await clusterIds()).toHaveLength(1);
    } else {
      // Adopted: both entries name the one cluster.
      const ids = await clusterIds();
      expect([ids.length, new Set(ids).size]).toEqual([2, 1]);
    }
    // The second twin leaves the program: its delete, if it holds the cluster, is kept.
    await stack.setConfig("test:both", "false");
    const beforeRemoval = await plane.lastSeq();
    await stack.up();
    expect(writesOf(await plane.audit(beforeRemoval))).toEqual([]);
    expect((await live()).clusters.filter((c) => !already.includes(c))).toEqual(made);
    await stack.destroy();
    expect((await live()).clusters).toEqual(already);
  });
});

// Importing such an object back makes no write: tofu-lifecycle.test.ts imports every resource of
// every platform's example back (importEverything; the vcluster by an import block), checking that
// no platform write is made and that the next plan has nothing to do.
describe("held objects in OpenTofu: moved and removed blocks of a live object", () => {
  let t: TofuPlane;
  const HEADER = 'terraform {\n  required_providers {\n    clusterform = { source = "registry.opentofu.org/clusterform/clusterform" }\n  }\n}\nprovider "clusterform" {}\n';
  const vc = (address: string) => `resource "clusterform_vcluster_vcluster" "${address}" {\n  name      = "held"\n  namespace = "held-tofu"\n}\n`;
  beforeAll(async () => {
    t = await openTofuPlane({ timeScale: 0.2 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("never deletes or recreates the live vcluster: moved to another address, then removed without destroying", async () => {
    const dir = t.open("vcluster", "held-tofu");
    const config = (text: string) => writeFileSync(path.join(dir.dir, "main.tf"), HEADER + text);
    const vclusters = async () => (await planeInventory(t.plane))["vcluster:VCluster"];
    config(vc("a"));
    await dir.ok(applyArgs());
    expect(await vclusters()).toEqual(["held-tofu/held"]);

    // Moved and removed blocks make no call at all.
    const steps: [string, string, string[]][] = [
      ["moved to another address", `${vc("b")}moved {\n  from = clusterform_vcluster_vcluster.a\n  to   = clusterform_vcluster_vcluster.b\n}\n`, ["clusterform_vcluster_vcluster.b"]],
      ["removed from the configuration without destroying it", 'removed {\n  from = clusterform_vcluster_vcluster.b\n  lifecycle {\n    destroy = false\n  }\n}\n', []],
    ];
    for (const [what, text, addresses] of steps) {
      config(text);
      const since = await t.plane.lastSeq();
      await dir.ok(applyArgs());
      expect({ what, writes: await t.mutationsSince(since) }).toEqual({ what, writes: [] });
      expect({ what, addresses: Object.keys(dir.stored()) }).toEqual({ what, addresses });
      expect(await vclusters()).toEqual(["held-tofu/held"]);
    }
  });
});
