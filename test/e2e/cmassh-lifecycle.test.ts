import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { mutations } from "../harness/local-plane";

describe("cma-ssh cluster and node pools: the whole lifecycle through the engine", () => {
  let t: CmasshStack;

  beforeAll(async () => {
    t = await openCmasshStack();
    await t.configure({ pools: { general: { count: 2 }, gpu: { instanceType: "gpu", count: 1 } } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates the cluster and both pools of one cluster in one up, and waits for RUNNING", async () => {
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create general", "create gpu", "create main"]);
    expect(result.outputs.status).toBe("RUNNING");
    // Progress reaches the resource's row through the engine's log, not the stack's diagnostics.
    expect(result.stdout).toMatch(/cmassh:Cluster main creating \([^)]*\) waiting for cluster "[^"]+" to be RUNNING: status PROVISIONING/);
    // A pool waits for its cluster: its row names the pool and its operation first.
    expect(result.stdout).toMatch(/cmassh:NodePool general creat\w+ \([^)]*\) pool "general-[0-9a-f]+": AddNodePool: wait(ing|ed) [^\n]*for cluster "[^"]+" to be RUNNING/);
    const [cluster] = await t.plane.cmasshClusters();
    expect(cluster.status).toBe("RUNNING");
    expect(cluster.name).toBe(result.outputs.clusterName);
    expect(cluster.pools.map((p) => `${p.name}:${p.instanceType}:${p.count}`).sort()).toEqual(
      Object.values(result.outputs.poolNames as Record<string, string>)
        .map((n) => `${n}:${n.startsWith("gpu") ? "gpu" : "standard"}:${n.startsWith("gpu") ? 1 : 2}`)
        .sort(),
    );
    expect(mutations(await t.plane.audit()).filter((m) => m.startsWith("CreateCluster"))).toHaveLength(1);
  });

  it("keeps the kubeconfig secret: the stored state holds no plaintext kubeconfig", async () => {
    const state = await t.stack.storedState();
    const outputs = await t.stack.stack.outputs();
    const kubeconfig = String(outputs.kubeconfig.value);
    expect(outputs.kubeconfig.secret).toBe(true);
    expect(kubeconfig).toContain("apiVersion");
    const token = /token: (\S+)/.exec(kubeconfig)?.[1];
    expect(token).toBeTruthy();
    expect(state).not.toContain(token);
    expect(state).not.toContain("apiVersion: v1");
    expect(state).toContain("4dabf18193072939515e22adb298388d"); // Pulumi's secret signature
  });

  it("adds a pool deleted out of band again when its count changes, and says so", async () => {
    const [cluster] = await t.plane.cmasshClusters();
    const pool = String(((await t.stack.stack.outputs()).poolNames.value as Record<string, string>).general);
    const gone = await fetch(`${t.plane.url}/api/v1/cluster/pool?clusterName=${cluster.name}&node_pool_names=${pool}`, { method: "DELETE" });
    expect(gone.status).toBe(200);
    await t.configure({ pools: { general: { count: 3 }, gpu: { instanceType: "gpu", count: 1 } } });
    const since = await t.plane.lastSeq();
    const result = await t.stack.up();
    expect(mutations(await t.plane.audit(since))).toEqual([`ScaleNodePool ${cluster.name}/${pool}`, `AddNodePool ${cluster.name}/${pool}`]);
    expect((await t.plane.audit(since)).filter((e) => e.operation === "ScaleNodePool").map((e) => e.code)).toEqual(["NOT_FOUND"]);
    expect(result.stdout).toContain(
      `warning: pool "${pool}" of cluster "${cluster.name}" no longer exists (ScaleNodePool answered NOT_FOUND: it was deleted outside Pulumi); adding it again with 3 machine(s)`,
    );
    const [after] = await t.plane.cmasshClusters();
    expect(after.pools.find((p) => p.name === pool)?.count).toBe(3);
  });

  it("drops a cluster deleted out of band on refresh, and recreates it on up", async () => {
    const [cluster] = await t.plane.cmasshClusters();
    const gone = await fetch(`${t.plane.url}/api/v1/cluster?name=${cluster.name}`, { method: "DELETE" });
    expect(gone.status).toBe(200);
    await expect.poll(async () => (await t.plane.cmasshClusters()).length, { timeout: 20_000, interval: 200 }).toBe(0);

    await t.stack.refresh();
    const state = await t.stack.exportState();
    const types = (state.deployment.resources ?? []).map((r: { type: string }) => r.type);
    expect(types.filter((ty: string) => ty.includes("cmassh"))).toEqual([]);

    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create general", "create gpu", "create main"]);
    expect((await t.plane.cmasshClusters()).map((c) => c.status)).toEqual(["RUNNING"]);
  });

  it("destroys everything and leaves nothing in the local control plane", async () => {
    const result = await t.stack.destroy();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["delete general", "delete gpu", "delete main"]);
    expect(await t.plane.cmasshClusters()).toEqual([]);
    const deletes = mutations(await t.plane.audit()).filter((m) => m.startsWith("Delete"));
    expect(deletes.at(-1)).toMatch(/^DeleteCluster /);
  });
});
