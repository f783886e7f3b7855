import { VCLUSTER_CALLS, VCLUSTER_FIELDS } from "./schema";

/** The SDK argument name of an input field (the SDK sends `owner` as `vclusterOwner`). */
export const SDK_NAME: Readonly<Record<string, string>> = { vclusterOwner: "owner" };

/** A field's change in short: replace, nothing, or the in-place call (with its update mask path). */
export function fieldChange(field: string): string {
  const { policy, maskPath } = VCLUSTER_FIELDS[field];
  if (policy.kind === "replace") return "replace";
  if (policy.kind === "ignore") return "nothing";
  if (policy.kind === "record") return "in place, in the state only";
  return maskPath ? `in place: ${VCLUSTER_CALLS.UpdateVCluster}, mask \`${maskPath}\`` : `in place: ${policy.operation}`;
}

/** How the reference page's inputs table words a change kind. */
const REFERENCE_CHANGE: Readonly<Record<string, (operation?: string) => string>> = {
  replace: () => "replace",
  update: (operation) => `in place (\`${operation}\`)`,
  ignore: () => "no platform call",
};

/**
 * The "on change" cell docs/reference/vcluster-vcluster.md must show for a field, built from
 * {@link VCLUSTER_FIELDS} (the table the provider plans with), so the docs and the code cannot disagree.
 */
export function referenceChangeCell(field: string): string {
  const { policy, note } = VCLUSTER_FIELDS[field];
  const change = REFERENCE_CHANGE[policy.kind](policy.kind === "update" ? policy.operation : undefined);
  return note ? `${change}: ${note}` : change;
}
