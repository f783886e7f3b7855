import { describe, expect, it } from "vitest";
import { planDiff } from "../../../core/planner";
import { vclusterPolicies } from "./schema";
import { planSteps } from "./steps";

type Props = Record<string, unknown>;
const base: Props = { name: "dev", namespace: "team-a" };

function steps(olds: Props, news: Props) {
  const [o, n] = [{ ...base, ...olds }, { ...base, ...news }];
  return planSteps(planDiff(vclusterPolicies, o, n), o, n).map((s) => (s.call === "UpdateVCluster" ? `${s.call}[${s.mask.join(",")}]` : s.call));
}

describe("planSteps", () => {
  it.each<[string, Props, Props, string[]]>([
    ["nothing for no change", {}, {}, []],
    ["one UpdateVCluster whose mask names exactly the changed fields", {}, { kubernetesVersion: "1.29.0", sync: { syncNodes: true }, labels: { a: "b" } }, ["UpdateVCluster[spec.kubernetes_version,spec.sync,labels]"]],
    ["ScaleVCluster for replicas and resources together", {}, { replicas: 3, resources: { cpuLimit: "1" } }, ["ScaleVCluster"]],
    ["resume, then scale, when both change", { suspended: true }, { suspended: false, replicas: 3 }, ["ResumeVCluster", "ScaleVCluster"]],
    ["update, then scale, then suspend last", {}, { suspended: true, replicas: 2, helmValues: "x: 1" }, ["UpdateVCluster[spec.helm_values]", "ScaleVCluster", "SuspendVCluster"]],
    ["resume, scale and suspend again for a vcluster that stays suspended", { suspended: true }, { suspended: true, replicas: 3 }, ["ResumeVCluster", "ScaleVCluster", "SuspendVCluster"]],
    ["an update of a suspended vcluster without resuming it", { suspended: true }, { suspended: true, labels: { a: "b" } }, ["UpdateVCluster[labels]"]],
    ["resume alone", { suspended: true }, {}, ["ResumeVCluster"]],
  ])("plans %s", (_, olds, news, expected) => {
    expect(steps(olds, news)).toEqual(expected);
  });
});
