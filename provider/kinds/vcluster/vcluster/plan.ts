import type { Disruption, KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { planSteps } from "./steps";

type Props = Record<string, unknown>;

/** `namespace/name`, the key every vcluster call names; undefined while unknown. */
function keyOf(props: Props): string | undefined {
  const [namespace, name] = [known(props.namespace), known(props.name)];
  return namespace && name ? `${namespace}/${name}` : undefined;
}

/** Why each phase call matters to a reviewer. */
const STEP_TEXT: Record<string, { summary: string; disruptions: Disruption[] }> = {
  ResumeVCluster: { summary: "resumes the suspended vcluster", disruptions: [] },
  UpdateVCluster: { summary: "updates the spec", disruptions: [] },
  ScaleVCluster: { summary: "scales the control plane", disruptions: ["restarts"] },
  SuspendVCluster: { summary: "suspends the vcluster: its workloads stop", disruptions: ["capacity-removed"] },
};

/**
 * vclusters: the phase-ordered calls of {@link planSteps} (the same function `update` runs), each
 * with its update mask or new size.
 */
export const vclusterPlanner: KindPlanner = {
  update(olds, news, diff) {
    const key = keyOf(olds);
    return planSteps(diff, olds, news).map((step) => {
      const text = STEP_TEXT[step.call];
      const args: Props = step.call === "UpdateVCluster" ? { mask: step.mask } : step.call === "ScaleVCluster" ? { replicas: news.replicas, resources: news.resources } : {};
      const upgrade = step.call === "UpdateVCluster" && step.mask.includes("spec.kubernetes_version");
      const summary = upgrade ? `upgrades Kubernetes ${olds.kubernetesVersion} -> ${news.kubernetesVersion} (mask ${step.mask.join(", ")})` : step.call === "UpdateVCluster" ? `${text.summary} (mask ${step.mask.join(", ")})` : text.summary;
      return op(step.call, key, args, summary, upgrade ? ["upgrade"] : text.disruptions);
    });
  },
  create: (news) =>
    news.restoreFrom
      ? [
          op("RestoreVCluster", keyOf(news), { snapshotId: news.restoreFrom }, `restores snapshot ${news.restoreFrom} as a new vcluster`),
          op("UpdateVCluster", keyOf(news), {}, "sets labels and the spec fields the resource names"),
        ]
      : [op("CreateVCluster", keyOf(news), { distro: news.distro, kubernetesVersion: news.kubernetesVersion }, `creates a ${news.distro ?? "k3s"} vcluster`)],
  delete: (olds) => [op("DeleteVCluster", keyOf(olds), {}, "deletes the vcluster and everything running in it", ["deletes", "capacity-removed"])],
};
