import type { CallOf } from "../../../core/plan/calls";
import type { Disruption, KindPlanner } from "../../../core/plan/operation";
import { known, op } from "../../../core/plan/operation";
import { VCLUSTER_CALLS, type VCLUSTER_UPDATE_CALLS } from "./schema";
import { planSteps, type Step } from "./steps";
import { type SuspendOptions, suspendArgsOf, suspendSummary } from "./suspend-options";

type Props = Record<string, unknown>;

/** `namespace/name`, the key every vcluster call names; undefined while unknown. */
function keyOf(props: Props): string | undefined {
  const [namespace, name] = [known(props.namespace), known(props.name)];
  return namespace && name ? `${namespace}/${name}` : undefined;
}

/** Why each phase call matters to a reviewer. */
const STEP_TEXT: Readonly<Record<Step["call"], { summary: string; disruptions: Disruption[] }>> = {
  [VCLUSTER_CALLS.ResumeVCluster]: { summary: "resumes the suspended vcluster", disruptions: [] },
  [VCLUSTER_CALLS.UpdateVCluster]: { summary: "updates the spec", disruptions: [] },
  [VCLUSTER_CALLS.ScaleVCluster]: { summary: "scales the control plane", disruptions: ["restarts"] },
  [VCLUSTER_CALLS.SuspendVCluster]: { summary: "suspends the vcluster: its workloads stop", disruptions: ["capacity-removed"] },
};

/** A step's arguments: an update's mask, a scale's new size, a suspend's options. */
function argsOf(step: Step, news: Props): Props {
  if (step.call === VCLUSTER_CALLS.UpdateVCluster) return { mask: step.mask };
  if (step.call === VCLUSTER_CALLS.ScaleVCluster) return { replicas: news.replicas, resources: news.resources };
  if (step.call === VCLUSTER_CALLS.SuspendVCluster) return { ...suspendArgsOf(news.suspendOptions as SuspendOptions | undefined) };
  return {};
}

/** A step's line in the plan; a suspend says what it does before the control plane stops. */
function summaryOf(step: Step, olds: Props, news: Props): string {
  if (step.call === VCLUSTER_CALLS.UpdateVCluster) {
    const mask = step.mask.join(", ");
    return step.mask.includes("spec.kubernetes_version") ? `upgrades Kubernetes ${olds.kubernetesVersion} -> ${news.kubernetesVersion} (mask ${mask})` : `${STEP_TEXT[step.call].summary} (mask ${mask})`;
  }
  if (step.call === VCLUSTER_CALLS.SuspendVCluster) return suspendSummary(news.suspendOptions as SuspendOptions | undefined);
  return STEP_TEXT[step.call].summary;
}

/**
 * vclusters: the phase-ordered calls of {@link planSteps} (the same function `update` runs), each
 * with its update mask, new size or suspend options.
 */
export const vclusterPlanner: KindPlanner<CallOf<typeof VCLUSTER_CALLS>, CallOf<typeof VCLUSTER_UPDATE_CALLS>> = {
  update(olds, news, diff) {
    const key = keyOf(olds);
    return planSteps(diff, olds, news).map((step) => {
      const upgrade = step.call === VCLUSTER_CALLS.UpdateVCluster && step.mask.includes("spec.kubernetes_version");
      return op(step.call, key, argsOf(step, news), summaryOf(step, olds, news), upgrade ? ["upgrade"] : STEP_TEXT[step.call].disruptions);
    });
  },
  create: (news) =>
    news.restoreFrom
      ? [
          op(VCLUSTER_CALLS.RestoreVCluster, keyOf(news), { snapshotId: news.restoreFrom }, `restores snapshot ${news.restoreFrom} as a new vcluster`),
          op(VCLUSTER_CALLS.UpdateVCluster, keyOf(news), {}, "sets labels and the spec fields the resource names"),
        ]
      : [op(VCLUSTER_CALLS.CreateVCluster, keyOf(news), { distro: news.distro, kubernetesVersion: news.kubernetesVersion }, `creates a ${news.distro ?? "k3s"} vcluster`)],
  delete: (olds) => [op(VCLUSTER_CALLS.DeleteVCluster, keyOf(olds), {}, "deletes the vcluster and everything running in it", ["deletes", "capacity-removed"])],
};
