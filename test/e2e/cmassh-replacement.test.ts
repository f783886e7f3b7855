import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps, spawnCli } from "../harness/engine";
import { type AuditEntry, mutations } from "../harness/local-plane";
import { killTree } from "../harness/processes";

/** What the platform holds: `cluster` and `cluster/pool:count` for every pool. */
async function inventory(t: CmasshStack): Promise<string[]> {
  const clusters = await t.plane.cmasshClusters();
  return clusters.flatMap((c) => [`${c.name} ${c.status}`, ...c.pools.map((p) => `${c.name}/${p.name}:${p.count}`)]).sort();
}

/** What the state names, as the program exports it. */
function named(outputs: Record<string, unknown>): string[] {
  const cluster = String(outputs.clusterName);
  const pools = outputs.poolNames as Record<string, string>;
  return [`${cluster} RUNNING`, ...Object.values(pools).map((p) => `${cluster}/${p}:1`)].sort();
}

const OK = (entries: AuditEntry[]) => entries.filter((e) => e.code === "OK");
const creates = (entries: AuditEntry[]) => OK(entries).filter((e) => e.operation === "CreateCluster");

/** The error message of a run that must fail, or "succeeded". */
const failureOf = (run: Promise<unknown>) =>
  run.then(
    () => "succeeded",
    (err: Error) => err.message,
  );

describe("cma-ssh: `pulumi up --replace` ends with a new object the state names, never adopting the old one", () => {
  let t: CmasshStack;
  const pools = { derived: {}, chosen: { name: "chosen-pool" } };
  /** The outputs of the last up, which the pools' replacements start from (the configuration is unchanged between them). */
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    t = await openCmasshStack({ timeScale: 0.2 });
    await t.configure({ pools });
    outputs = (await t.stack.up()).outputs;
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each([
    ["a pool with a derived name", "derived"],
    ["a pool with a chosen name", "chosen"],
  ])("replaces %s by deleting it, then adding it again", async (_, key) => {
    const before = outputs;
    const pool = `${before.clusterName}/${(before.poolNames as Record<string, string>)[key]}`;
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf(key)] });
    outputs = result.outputs;
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual([`delete-replaced ${key}`, `replace ${key}`, `create-replacement ${key}`]);
    expect(mutations(await t.plane.audit(since))).toEqual([`DeleteNodePool ${pool}`, `AddNodePool ${pool}`]);
    expect(await inventory(t)).toEqual(named(result.outputs));
  });

  // A cluster with a chosen name is replaced the same way, with the core's engine-neutral rules:
  // provider/engines/terraform/lifecycle.test.ts replaces the cma-ssh cluster named "prod" in both orders.
  it("replaces a cluster with a derived name and its pools: all deleted first, then created again", async () => {
    const before = outputs;
    const cluster = String(before.clusterName);
    const poolIds = Object.values(before.poolNames as Record<string, string>).map((p) => `${cluster}/${p}`);
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("main")] });
    const calls = mutations(await t.plane.audit(since));
    expect([...calls.slice(0, 2)].sort()).toEqual(poolIds.map((p) => `DeleteNodePool ${p}`).sort());
    expect(calls.slice(2, 4)).toEqual([`DeleteCluster ${cluster}`, `CreateCluster ${cluster}`]);
    expect([...calls.slice(4)].sort()).toEqual(poolIds.map((p) => `AddNodePool ${p}`).sort());
    expect(await inventory(t)).toEqual(named(result.outputs));
  });

  it("refuses a create-first replacement of an object that keeps its name before changing anything, saying how to replace", async () => {
    await t.configure({ clusterName: undefined, pools: { ...pools, derived: { deleteBeforeReplace: false } } });
    const before = (await t.stack.up()).outputs;
    const held = await inventory(t);
    const since = await t.plane.lastSeq();
    const failure = await t.stack.up({ replace: [await t.stack.urnOf("derived")] }).then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is the object this run replaces/);
    expect(failure).toMatch(/Remove `deleteBeforeReplace: false`/);
    // cma-ssh cannot read a pool: the only call is an AddNodePool it refuses as a duplicate.
    expect(OK(await t.plane.audit(since)).filter((e) => e.operation !== "GetCluster")).toEqual([]);
    expect(await inventory(t)).toEqual(held);
    expect(await inventory(t)).toEqual(named(before));
  });

  it("refuses at preview a create-first replacement of a cluster that keeps its chosen name", async () => {
    await t.configure({ clusterName: "chosen-main", clusterDeleteBeforeReplace: false, pools });
    await t.stack.up();
    await t.configure({ clusterName: "chosen-main", clusterDeleteBeforeReplace: false, pools, controlPlane: { instanceType: "gpu", count: 1 } });
    const since = await t.plane.lastSeq();
    await expect(t.stack.preview()).rejects.toThrow(/REPLACEMENT_CLASH: .*remove `deleteBeforeReplace: false`/);
    expect(await t.plane.audit(since)).toEqual([]);
    await t.configure({ clusterName: undefined, clusterDeleteBeforeReplace: undefined, pools, controlPlane: undefined });
    await t.stack.up();
  });

  it("creates first when asked and the name changes: the new pool is added before the old one is deleted", async () => {
    await t.configure({ pools: { ...pools, derived: { deleteBeforeReplace: false } } });
    const before = (await t.stack.up()).outputs;
    await t.configure({ pools: { ...pools, derived: { deleteBeforeReplace: false, labels: { tier: "batch" } } } });
    const since = await t.plane.lastSeq();
    const after = (await t.stack.up()).outputs;
    const [oldName, newName] = [before, after].map((o) => `${o.clusterName}/${(o.poolNames as Record<string, string>).derived}`);
    expect(oldName).not.toBe(newName);
    expect(mutations(await t.plane.audit(since))).toEqual([`AddNodePool ${newName}`, `DeleteNodePool ${oldName}`]);
    expect(await inventory(t)).toEqual(named(after));
  });
});

describe("cma-ssh: a run killed between a create-first replacement's create and the old pool's delete", () => {
  let t: CmasshStack;

  beforeAll(async () => {
    t = await openCmasshStack({ timeScale: 3 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("never deletes, on the next run, the pool the state names", async () => {
    await t.configure({ pools: { p: { deleteBeforeReplace: false } } });
    const before = (await t.stack.up()).outputs;
    const oldPool = `${before.clusterName}/${(before.poolNames as Record<string, string>).p}`;
    await t.configure({ pools: { p: { deleteBeforeReplace: false, labels: { tier: "batch" } } } });
    const since = await t.plane.lastSeq();
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const added = async () => OK(await t.plane.audit(since)).filter((e) => e.operation === "AddNodePool");
    await expect.poll(async () => (await added()).length, { timeout: 120_000, interval: 100 }).toBe(1);
    killTree(cli.pid!);
    await exited;
    const newPool = (await added())[0].target;
    expect(mutations(await t.plane.audit(since))).toEqual([`AddNodePool ${newPool}`]);

    await t.stack.stack.cancel();
    const after = (await t.stack.up()).outputs;
    expect(`${after.clusterName}/${(after.poolNames as Record<string, string>).p}`).toBe(newPool);
    expect(mutations(await t.plane.audit(since)).filter((m) => m.startsWith("DeleteNodePool"))).toEqual([`DeleteNodePool ${oldPool}`]);
    expect(await inventory(t)).toEqual(named(after));
  });
});

describe("cma-ssh: an unreachable platform, and the documented recovery of a cluster in ERROR", () => {
  let t: CmasshStack;
  // A privileged port nothing here listens on and no server takes (a stopped plane's own port can be
  // taken at once by a server another test file starts, which then answers instead); not 9: fetch
  // refuses the discard port.
  const nowhere = "http://127.0.0.1:2";

  beforeAll(async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 0.2, config: { "clusterform:unreachableTimeout": "3s" } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The engine-level proof that the stack's clusterform:unreachableTimeout reaches the provider; each
  // platform's message and limit: provider/kinds/unreachable.test.ts, cmassh/platform-access.test.ts.
  it("fails within clusterform:unreachableTimeout against an endpoint nothing listens on, naming the address", async () => {
    await t.stack.setConfig("clusterform:endpoint", nowhere);
    // The cluster's create timeout is 2 minutes: only the unreachable limit can end the run sooner.
    const started = Date.now();
    const failure = await failureOf(t.stack.up());
    expect(failure).toMatch(new RegExp(`UNREACHABLE: cannot reach ${nowhere.replace(/\./g, "\\.")}: connect ECONNREFUSED`));
    expect(failure).toMatch(/giving up \(limit 3s, set by clusterform:unreachableTimeout\)/);
    expect(Date.now() - started).toBeLessThan(120_000);
    await t.stack.setConfig("clusterform:endpoint", t.plane.url);
  });

  it("records a cluster whose provisioning ends in ERROR, never creates a second, and `pulumi up --replace <urn>` deletes it and creates a RUNNING one under the name the state keeps", async () => {
    await t.plane.addFault({ api: "cmassh", operation: "CreateCluster", action: "fail-operation", message: "no capacity" });
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR: no capacity/);
    const state = await t.stack.exportState();
    const recorded = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("cmassh:Cluster"));
    expect(recorded?.outputs?.status).toBe("ERROR");
    expect(String(recorded?.outputs?.__provider)).toContain("clusterform/provider");
    expect(recorded?.initErrors?.[0]).toMatch(/no capacity/);
    // The next up looks again and reports the same truth; it does not create a second cluster.
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR/);
    expect(creates(await t.plane.audit())).toHaveLength(1);
    const clusters = await t.plane.cmasshClusters();
    expect(clusters.map((c) => c.status)).toEqual(["ERROR"]);
    const [failed] = clusters;

    // Because it is recorded, the replacement deletes it.
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("solo")] });
    expect(result.outputs).toMatchObject({ clusterName: failed.name, status: "RUNNING" });
    expect(mutations(await t.plane.audit(since))).toEqual([`DeleteCluster ${failed.name}`, `CreateCluster ${failed.name}`]);
    expect((await t.plane.cmasshClusters()).map((c) => `${c.name} ${c.status}`)).toEqual([`${failed.name} RUNNING`]);
  });

  // Last: it stops the plane (a refresh reads with the provider configuration the state recorded,
  // so the endpoint the stack's config names now does not reach it).
  it("reports a failed refresh once, by the engine, without the provider host's copy and stack trace", async () => {
    await t.plane.stop();
    const failure = await failureOf(t.stack.refresh());
    expect(failure).toMatch(/GetCluster cluster "[^"]+": UNREACHABLE: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(failure).not.toMatch(/\n\s+at /);
    expect(failure).not.toContain("ClusterformError:");
    // The CLI's error text holds its output more than once; the first Diagnostics section counts.
    const diagnostics = /Diagnostics:\n([\s\S]*?)\n(?:Outputs|Resources):/.exec(failure)?.[1];
    expect(diagnostics?.split("UNREACHABLE: cannot reach").length).toBe(2);
  });
});
