import { describe, expect, it } from "vitest";
import { planLine } from "./announce";

const pool = { clusterName: "prod", name: "work", instanceType: "standard", count: 5 };
const cluster = { name: "prod", kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };

describe("the plan line a changed resource's preview row shows", () => {
  it("is nothing when the diff finds no change", () => {
    expect(planLine("cmassh:NodePool", "prod/work", pool, pool, { changes: false })).toBeUndefined();
  });

  it("is nothing for types that are not Clusterform's", () => {
    expect(planLine("aws:s3/bucket:Bucket", "b", {}, {}, { changes: true })).toBeUndefined();
  });

  it("names an update's calls with what they disrupt", () => {
    expect(planLine("cmassh:NodePool", "prod/work", pool, { ...pool, count: 2 }, { changes: true })).toBe(
      "plan: ScaleNodePool: scales down from 5 to 2 machine(s): 3 removed [capacity removed]",
    );
  });

  it.each([
    [true, "plan: replace (controlPlane), delete first: DeleteCluster: deletes the cluster and every machine in it [deletes, capacity removed]; CreateCluster: creates a cluster running Kubernetes 1.30.10"],
    [false, "plan: replace (controlPlane), create first: CreateCluster: creates a cluster running Kubernetes 1.30.10; DeleteCluster: deletes the cluster and every machine in it [deletes, capacity removed]"],
  ])("names a replacement's order from the diff answer (deleteBeforeReplace %s)", (deleteBeforeReplace, line) => {
    const news = { ...cluster, controlPlane: { instanceType: "gpu", count: 1 } };
    expect(planLine("cmassh:Cluster", "prod", cluster, news, { changes: true, replaces: ["controlPlane"], deleteBeforeReplace })).toBe(line);
  });
});
