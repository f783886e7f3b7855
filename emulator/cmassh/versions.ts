/** Kubernetes versions offered for upgrades when the emulator is given no catalogue. */
export const DEFAULT_CMASSH_VERSIONS: readonly string[] = ["1.28.15", "1.29.14", "1.30.10", "1.31.6", "1.32.3", "1.33.1"];

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)$/;

/** `[major, minor, patch]` of a `x.y.z` version (a leading `v` allowed), or undefined. */
export function parseVersion(version: string): [number, number, number] | undefined {
  const match = SEMVER.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`; unparsable sorts first. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a) ?? [-1, -1, -1];
  const right = parseVersion(b) ?? [-1, -1, -1];
  for (let i = 0; i < 3; i++) {
    if (left[i] !== right[i]) return left[i] - right[i];
  }
  return 0;
}

/**
 * Catalogue versions a cluster at `current` may be upgraded to, ascending: its own version (in the
 * catalogue) and every newer one. Its own stays offered because upgrading to it changes nothing,
 * and upstream's UpgradeCluster accepts any version: a client that lost the answer to an upgrade
 * (an interrupted `pulumi up`) must be able to send it again once it has landed.
 */
export function offeredUpgrades(catalogue: readonly string[], current: string): string[] {
  return catalogue.filter((v) => compareVersions(v, current) >= 0).sort(compareVersions);
}
