import { VCLUSTER_FIELDS } from "./schema";

/** The SDK argument name of an input field (the SDK sends `owner` as `vclusterOwner`). */
const SDK_NAME: Readonly<Record<string, string>> = { vclusterOwner: "owner" };

function change(field: string): string {
  const { policy, maskPath } = VCLUSTER_FIELDS[field];
  if (policy.kind === "replace") return "replace";
  if (policy.kind === "ignore") return "nothing";
  return maskPath ? `in place: UpdateVCluster, mask \`${maskPath}\`` : `in place: ${policy.operation}`;
}

/**
 * The field policy table as docs/platforms/vcluster.md shows it, rendered from {@link VCLUSTER_FIELDS} so the
 * code and the docs cannot disagree (a unit test compares them).
 */
export function policyTableMarkdown(): string {
  const rows = Object.keys(VCLUSTER_FIELDS).map((f) => `| \`${SDK_NAME[f] ?? f}\` | ${change(f)} | ${VCLUSTER_FIELDS[f].note} |`);
  return ["| Field | Change | Why / how |", "|---|---|---|", ...rows].join("\n");
}
