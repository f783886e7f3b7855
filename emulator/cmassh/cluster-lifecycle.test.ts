import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { startTestPlane, type TestPlane, removeDataDirs } from "../testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

async function statusOf(name: string): Promise<ClusterStatus> {
  return (await t.cmassh.getCluster({ name })).cluster!.status;
}

async function codeOf(call: Promise<unknown>): Promise<Code | "OK"> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

describe("cluster lifecycle (fake clock, time scale 1)", () => {
  it("is PROVISIONING for 3 s without kubeconfig, then RUNNING with one", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    t.clock.advance(2999);
    const provisioning = await t.cmassh.getCluster({ name: "c1" });
    expect(provisioning.cluster).toMatchObject({ status: ClusterStatus.PROVISIONING, kubeconfig: "" });
    t.clock.advance(1);
    const running = (await t.cmassh.getCluster({ name: "c1" })).cluster!;
    expect(running.status).toBe(ClusterStatus.RUNNING);
    expect(running.statusMessage).toBe("");
    expect(running.kubeconfig).toMatch(/^apiVersion: v1\nkind: Config\n/);
    expect(running.kubeconfig).toContain("current-context: c1-admin@c1");
    expect(running.kubeconfig).toMatch(/token: [0-9a-f]{64}\n/);
  });

  it("gives every cluster its own bearer token", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "a" });
    await t.cmassh.createCluster({ name: "b" });
    const token = async (name: string) => /token: (\S+)/.exec((await t.cmassh.getCluster({ name })).cluster!.kubeconfig)![1];
    expect(await token("a")).not.toBe(await token("b"));
  });

  it("multiplies durations by the time scale", async () => {
    t = await startTestPlane({ timeScale: 0.5 });
    await t.cmassh.createCluster({ name: "c1" });
    t.clock.advance(1499);
    expect(await statusOf("c1")).toBe(ClusterStatus.PROVISIONING);
    t.clock.advance(1);
    expect(await statusOf("c1")).toBe(ClusterStatus.RUNNING);
  });

  it("answers a duplicate name with INTERNAL mentioning 'already exists'", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1" });
    const error = await t.cmassh.createCluster({ name: "c1" }).catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Internal);
    expect((error as ConnectError).rawMessage).toContain("already exists");
  });

  it("rejects a name that is not a DNS-1123 label with INTERNAL, as the real server does, and stores nothing", async () => {
    t = await startTestPlane();
    expect(await codeOf(t.cmassh.createCluster({ name: "Not_Valid" }))).toBe(Code.Internal);
    expect(await codeOf(t.cmassh.createCluster({ name: "ok", workerNodePools: [{ name: "Bad Pool" }] }))).toBe(Code.Internal);
    expect((await t.cmassh.getClusterList({})).clusters).toEqual([]);
  });

  it("answers NOT_FOUND for a missing cluster on every cluster RPC", async () => {
    t = await startTestPlane();
    expect(await codeOf(t.cmassh.getCluster({ name: "ghost" }))).toBe(Code.NotFound);
    expect(await codeOf(t.cmassh.deleteCluster({ name: "ghost" }))).toBe(Code.NotFound);
    expect(await codeOf(t.cmassh.upgradeCluster({ name: "ghost", version: "1.31.6" }))).toBe(Code.NotFound);
    expect(await codeOf(t.cmassh.getUpgradeClusterInformation({ name: "ghost" }))).toBe(Code.NotFound);
    const error = await t.cmassh.getCluster({ name: "ghost" }).catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).rawMessage).toBe('cluster "ghost" not found');
  });

  it("shows STOPPING for 1.5 s after delete, then NOT_FOUND", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1" });
    t.clock.advance(3000);
    expect(await t.cmassh.deleteCluster({ name: "c1" })).toMatchObject({ ok: true, status: "Deleted" });
    expect(await statusOf("c1")).toBe(ClusterStatus.STOPPING);
    t.clock.advance(1499);
    expect(await statusOf("c1")).toBe(ClusterStatus.STOPPING);
    t.clock.advance(1);
    expect(await codeOf(t.cmassh.getCluster({ name: "c1" }))).toBe(Code.NotFound);
    expect((await t.cmassh.getClusterList({})).clusters).toEqual([]);
  });

  it("refuses mutations while STOPPING with FAILED_PRECONDITION, and accepts a repeated delete", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10", workerNodePools: [{ name: "p1", count: 1 }] });
    t.clock.advance(3000);
    await t.cmassh.deleteCluster({ name: "c1" });
    expect(await codeOf(t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" }))).toBe(Code.FailedPrecondition);
    expect(await codeOf(t.cmassh.addNodePool({ clusterName: "c1", workerNodePools: [{ name: "p2" }] }))).toBe(
      Code.FailedPrecondition,
    );
    expect(await codeOf(t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "p1", count: 2 }] }))).toBe(
      Code.FailedPrecondition,
    );
    expect(await codeOf(t.cmassh.deleteNodePool({ clusterName: "c1", nodePoolNames: ["p1"] }))).toBe(Code.FailedPrecondition);
    t.clock.advance(1000);
    expect(await t.cmassh.deleteCluster({ name: "c1" })).toMatchObject({ ok: true, status: "Deleted" });
    // The repeated delete did not restart the 1.5 s deletion.
    t.clock.advance(500);
    expect(await codeOf(t.cmassh.getCluster({ name: "c1" }))).toBe(Code.NotFound);
  });

  it("lists clusters with name and status only", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "b" });
    t.clock.advance(3000);
    await t.cmassh.createCluster({ name: "a" });
    const list = await t.cmassh.getClusterList({});
    expect(list.ok).toBe(true);
    expect(list.clusters.map((c) => [c.name, c.status, c.statusMessage])).toEqual([
      ["a", ClusterStatus.PROVISIONING, ""],
      ["b", ClusterStatus.RUNNING, ""],
    ]);
  });

  it("reports emulator version information", async () => {
    t = await startTestPlane();
    const reply = await t.cmassh.getVersionInformation({});
    expect(reply.ok).toBe(true);
    expect(reply.versionInformation).toMatchObject({
      gitVersion: "",
      gitTreeState: "",
      gitCommit: "clusterform-local",
      compiler: "tsc",
      platform: `${process.platform}/${process.arch}`,
    });
    expect(reply.versionInformation!.buildDate).toBe(new Date(t.clock.now()).toISOString());
  });
});
