import { createHash } from "node:crypto";

/** The label whose value marks a platform object as created by one Pulumi resource. */
export const OWNER_LABEL_KEY = "clusterform.dev/owner";

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Length of the hash suffix of derived names, and of the '-' before it. */
const SUFFIX_CHARS = 7;

/**
 * A DNS-1123 label from the Pulumi resource name plus a short hash of `seed`. The same inputs give
 * the same name, which is what lets an interrupted `up` find and adopt what it created.
 * @param maxLength - the platform's limit on names. @default 63
 * @throws Error when `maxLength` leaves no room for the hash suffix.
 */
export function deriveName(resourceName: string, seed: string, maxLength = 63): string {
  if (maxLength < SUFFIX_CHARS + 2) {
    throw new Error(`deriveName: maxLength must be at least ${SUFFIX_CHARS + 2}, got ${maxLength}`);
  }
  const suffix = sha256Hex(seed).slice(0, SUFFIX_CHARS);
  const base = trimDashes(
    resourceName
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/-{2,}/g, "-"),
  );
  const kept = trimDashes(base.slice(0, maxLength - SUFFIX_CHARS - 1));
  return kept === "" ? suffix : `${kept}-${suffix}`;
}

function trimDashes(text: string): string {
  return text.replace(/^-+|-+$/g, "");
}

/**
 * A stable 16-hex-character id of one Pulumi resource, the value of {@link OWNER_LABEL_KEY}.
 * Short enough to be a Kubernetes label value, which allows at most 63 characters.
 */
export function ownerMarker(project: string, stack: string, resourceName: string): string {
  // NUL separators keep ("a-b", "c") and ("a", "b-c") apart.
  return sha256Hex(`${project}\u0000${stack}\u0000${resourceName}`).slice(0, 16);
}

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();

/**
 * A lookup's OpenTofu/Terraform data source: `getClusterUpgrades` of `cmassh` is
 * `clusterform_cmassh_cluster_upgrades`; vcluster's `getVClusters` is `clusterform_vcluster_vclusters`.
 */
export function dataSourceName(platform: string, lookupName: string): string {
  return `clusterform_${platform}_${snake(lookupName.replace(/^get/, "")).replace(/(^|_)v_cluster/g, "$1vcluster")}`;
}
