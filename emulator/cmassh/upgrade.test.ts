import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { startTestPlane, type TestPlane, removeDataDirs } from "../testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

async function adminCluster(name: string): Promise<{ status: string; k8sVersion: string }> {
  const body = (await t.http("GET", "/_local/cmassh/clusters")).body as { clusters: { name: string; status: string; k8sVersion: string }[] };
  return body.clusters.find((c) => c.name === name)!;
}

describe("upgrades", () => {
  it("offers the cluster's own version and the newer ones of the catalogue, ascending", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    const reply = await t.cmassh.getUpgradeClusterInformation({ name: "c1" });
    expect(reply).toMatchObject({ ok: false, versions: ["1.30.10", "1.31.6", "1.32.3", "1.33.1"] });
  });

  it("offers a new cluster the whole catalogue, ascending, when no cluster is named", async () => {
    t = await startTestPlane({ cmasshVersions: ["1.40.0", "1.31.0", "1.29.0"] });
    expect((await t.cmassh.getUpgradeClusterInformation({ name: "" })).versions).toEqual(["1.29.0", "1.31.0", "1.40.0"]);
    const missing = await t.cmassh.getUpgradeClusterInformation({ name: "nosuch" }).catch((e: unknown) => ConnectError.from(e));
    expect(missing).toMatchObject({ code: Code.NotFound });
  });

  it("uses the configured catalogue", async () => {
    t = await startTestPlane({ cmasshVersions: ["1.40.0", "1.31.0", "1.29.0"] });
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    expect((await t.cmassh.getUpgradeClusterInformation({ name: "c1" })).versions).toEqual(["1.31.0", "1.40.0"]);
  });

  it("reconciles for 2 s, then runs the new version", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    t.clock.advance(3000);
    expect(await t.cmassh.upgradeCluster({ name: "c1", version: "1.32.3" })).toMatchObject({ ok: true });
    expect(await adminCluster("c1")).toMatchObject({ status: "RECONCILING", k8sVersion: "1.30.10" });
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.kubeconfig).not.toBe("");
    t.clock.advance(2000);
    expect(await adminCluster("c1")).toMatchObject({ status: "RUNNING", k8sVersion: "1.32.3" });
    expect((await t.cmassh.getUpgradeClusterInformation({ name: "c1" })).versions).toEqual(["1.32.3", "1.33.1"]);
  });

  it("accepts an upgrade sent again after it landed: the cluster keeps running the version", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    t.clock.advance(3000);
    await t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" });
    t.clock.advance(2000);
    expect(await t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" })).toMatchObject({ ok: true });
    t.clock.advance(2000);
    expect(await adminCluster("c1")).toMatchObject({ status: "RUNNING", k8sVersion: "1.31.6" });
  });

  it.each([["1.29.14"], ["1.31.7"], ["latest"]])(
    "rejects %s with FAILED_PRECONDITION listing the offered versions",
    async (version) => {
      t = await startTestPlane();
      await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
      t.clock.advance(3000);
      const error = await t.cmassh.upgradeCluster({ name: "c1", version }).catch((e: unknown) => ConnectError.from(e));
      expect((error as ConnectError).code).toBe(Code.FailedPrecondition);
      expect((error as ConnectError).rawMessage).toContain("offered: 1.30.10, 1.31.6, 1.32.3, 1.33.1");
      expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.RUNNING);
    },
  );
});
