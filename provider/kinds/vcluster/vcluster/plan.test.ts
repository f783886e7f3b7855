import { describe, expect, it } from "vitest";
import { planDiff } from "../../../core/planner";
import { UNKNOWN } from "../../../core/validation";
import { vclusterPlanner } from "./plan";
import { vclusterPolicies } from "./schema";

type Props = Record<string, unknown>;
const base: Props = { name: "dev", namespace: "team-a" };

/** The planned update's calls with their summaries, arguments and disruptions. */
function planned(olds: Props, news: Props) {
  const [o, n] = [{ ...base, ...olds }, { ...base, ...news }];
  return vclusterPlanner.update(o, n, planDiff(vclusterPolicies, o, n), "vc-1");
}

describe("vclusterPlanner.update", () => {
  it.each<[string, Props | undefined, string]>([
    ["no options: the control plane stops at once", undefined, "suspends the vcluster: its workloads stop"],
    ["a drain", { drainWorkloads: true }, "drains its workloads, then suspends the vcluster: its workloads stop"],
    ["a drain with a timeout", { drainWorkloads: true, drainTimeout: "5m" }, "drains its workloads (a drain over 5m fails the suspend), then suspends the vcluster: its workloads stop"],
    ["a snapshot with a generated name", { createSnapshot: true }, "takes a snapshot, then suspends the vcluster: its workloads stop"],
    [
      "a named snapshot, then a drain",
      { createSnapshot: true, snapshotName: "before-pause", drainWorkloads: true, drainTimeout: "90s" },
      'takes snapshot "before-pause", then drains its workloads (a drain over 90s fails the suspend), then suspends the vcluster: its workloads stop',
    ],
    ["options that ask for nothing", { drainWorkloads: false, createSnapshot: false }, "suspends the vcluster: its workloads stop"],
    ["an unknown snapshot name, as a preview sees it", { createSnapshot: true, snapshotName: UNKNOWN }, "takes a snapshot, then suspends the vcluster: its workloads stop"],
  ])("describes a suspend with %s", (_, suspendOptions, summary) => {
    const [suspend] = planned({}, { suspended: true, ...(suspendOptions ? { suspendOptions } : {}) });
    expect([suspend.call, suspend.summary]).toEqual(["SuspendVCluster", summary]);
  });

  it("marks a suspend as removing capacity, with or without a drain", () => {
    expect([planned({}, { suspended: true })[0].disruptions, planned({}, { suspended: true, suspendOptions: { drainWorkloads: true } })[0].disruptions]).toEqual([
      ["capacity-removed"],
      ["capacity-removed"],
    ]);
  });

  it.each<[string, Props | undefined, Props]>([
    ["none set", undefined, { drainWorkloads: undefined, drainTimeoutSeconds: undefined, createSnapshot: undefined, snapshotName: undefined }],
    ["a drain of 5m", { drainWorkloads: true, drainTimeout: "5m" }, { drainWorkloads: true, drainTimeoutSeconds: 300, createSnapshot: undefined, snapshotName: undefined }],
    ["a named snapshot", { createSnapshot: true, snapshotName: "s1" }, { drainWorkloads: undefined, drainTimeoutSeconds: undefined, createSnapshot: true, snapshotName: "s1" }],
    ["options a preview does not know", UNKNOWN as never, { drainWorkloads: UNKNOWN, drainTimeoutSeconds: UNKNOWN, createSnapshot: UNKNOWN, snapshotName: UNKNOWN }],
  ])("carries the request fields of the suspend options as the suspend's arguments: %s", (_, suspendOptions, args) => {
    expect(planned({}, { suspended: true, ...(suspendOptions ? { suspendOptions } : {}) }).map((o) => [o.call, o.args])).toEqual([["SuspendVCluster", args]]);
  });

  it("flags a suspend whose options are unknown", () => {
    expect(planned({}, { suspended: true, suspendOptions: UNKNOWN })[0].disruptions).toEqual(["capacity-removed", "unknown-values"]);
  });

  it.each<[string, Props, Props]>([
    ["the options change alone", { suspendOptions: { drainWorkloads: true } }, { suspendOptions: { drainWorkloads: false, createSnapshot: true } }],
    ["the options change on a suspended vcluster", { suspended: true }, { suspended: true, suspendOptions: { drainWorkloads: true } }],
    ["the options change with a resume", { suspended: true, suspendOptions: { createSnapshot: true } }, { suspended: false }],
  ])("plans no suspend when %s", (_, olds, news) => {
    expect(planned(olds, news).map((o) => o.call)).not.toContain("SuspendVCluster");
  });

  it("describes the other calls as before: an upgrade names both versions and its mask", () => {
    expect(planned({ kubernetesVersion: "1.28.0" }, { kubernetesVersion: "1.29.0", labels: { a: "b" } }).map((o) => o.summary)).toEqual([
      "upgrades Kubernetes 1.28.0 -> 1.29.0 (mask spec.kubernetes_version, labels)",
    ]);
  });
});
