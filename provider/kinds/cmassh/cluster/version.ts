import type { CheckFailure } from "../../../core/validation";
import { isUnknown } from "../../../core/validation";

function parts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map(Number);
}

/** Negative when a < b, positive when a > b, 0 when equal (MAJOR.MINOR.PATCH). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** cma-ssh upgrades only: a lower `kubernetesVersion` than the cluster runs fails in preview. */
export function versionChangeFailures(olds: Record<string, unknown>, news: Record<string, unknown>): CheckFailure[] {
  const [from, to] = [olds.kubernetesVersion, news.kubernetesVersion];
  if (typeof from !== "string" || typeof to !== "string" || isUnknown(to) || compareVersions(to, from) >= 0) return [];
  return [
    {
      property: "kubernetesVersion",
      reason: `kubernetesVersion cannot go down from ${from} to ${to}: cma-ssh only upgrades; choose ${from} or a newer version, or replace the cluster`,
    },
  ];
}
