import { describe, expect, it } from "vitest";
import { cmasshCluster } from "../../kinds/cmassh/cluster/kind";
import { cmasshNodePool } from "../../kinds/cmassh/node-pool/kind";
import type { Kind } from "../definition/kind";
import { planLine, plannedCalls } from "./announce";

const pool = { clusterName: "prod", name: "work", instanceType: "standard", count: 5 };
const cluster = { name: "prod", kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };
const line = (kind: unknown, step: "update" | "replace", olds: Record<string, unknown>, news: Record<string, unknown>, replaces: string[], deleteFirst = true) => {
  const operations = plannedCalls(kind as Kind, step, "id", olds, news, deleteFirst ? "delete-first" : "create-first");
  return planLine({ changes: true, deleteFirst, operations }, replaces);
};

describe("the plan line a changed resource's preview row shows", () => {
  it("is nothing when the diff finds no change or plans no call", () => {
    expect(planLine({ changes: false, deleteFirst: false, operations: [] }, [])).toBeUndefined();
    expect(planLine({ changes: true, deleteFirst: false, operations: [] }, [])).toBeUndefined();
  });

  it("names an update's calls with what they disrupt", () => {
    expect(line(cmasshNodePool, "update", pool, { ...pool, count: 2 }, [])).toBe("plan: ScaleNodePool: scales down from 5 to 2 machine(s): 3 removed [capacity removed]");
  });

  it.each([
    [true, "plan: replace (controlPlane), delete first: DeleteCluster: deletes the cluster and every machine in it [deletes, capacity removed]; CreateCluster: creates a cluster running Kubernetes 1.30.10"],
    [false, "plan: replace (controlPlane), create first: CreateCluster: creates a cluster running Kubernetes 1.30.10; DeleteCluster: deletes the cluster and every machine in it [deletes, capacity removed]"],
  ])("names a replacement's order (delete first: %s)", (deleteFirst, expected) => {
    const news = { ...cluster, controlPlane: { instanceType: "gpu", count: 1 } };
    expect(line(cmasshCluster, "replace", cluster, news, ["controlPlane"], deleteFirst)).toBe(expected);
  });
});
