import { SenlinError } from "./errors";

/** A microversion `1.x` as [major, minor]. */
export type Microversion = readonly [number, number];

/** The oldest version the server speaks; also what a request without the header gets. */
export const MIN_MICROVERSION: Microversion = [1, 0];

/** The newest version the real server speaks (Senlin 2024.1). */
export const DEFAULT_MAX_MICROVERSION: Microversion = [1, 14];

/** The first microversion of each version-gated feature. */
export const FEATURE_VERSIONS = {
  collectAttrs: [1, 2],
  validate: [1, 2],
  replaceNodes: [1, 3],
  clusterOps: [1, 4],
  destroyAfterDeletion: [1, 4],
  typeSupportStatus: [1, 5],
  profileOnly: [1, 6],
  recoverCheck: [1, 6],
  recoverCheckCapacity: [1, 7],
  nodeAdopt: [1, 7],
  deleteForce: [1, 8],
  completeLifecycle: [1, 9],
  webhookBodyParams: [1, 10],
  actionCancel: [1, 12],
  nodeTainted: [1, 13],
  actionClusterId: [1, 14],
} as const satisfies Record<string, Microversion>;

const VERSION = /^(\d+)\.(\d+)$/;

/** Parses `1.x`; undefined when malformed. */
export function parseMicroversion(text: string): Microversion | undefined {
  const match = VERSION.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Renders a version as `1.x`. */
export function formatMicroversion(version: Microversion): string {
  return `${version[0]}.${version[1]}`;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareMicroversions(a: Microversion, b: Microversion): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** The outcome of negotiation: the version to serve (every answer a handler returns names it). */
export interface NegotiatedVersion {
  version: Microversion;
}

/** The `clustering` entry of an `OpenStack-API-Version` header (which may list several services). */
function clusteringEntry(header: string | null): string | undefined {
  for (const entry of (header ?? "").split(",")) {
    const [service, version, ...rest] = entry.trim().split(/\s+/);
    if (service?.toLowerCase() === "clustering" && version !== undefined && rest.length === 0) return version;
  }
  return undefined;
}

/**
 * Picks the version of a request: none named ⇒ 1.0, `latest` ⇒ the maximum.
 * @throws SenlinError 400 for a malformed version, 406 for one outside [1.0, max].
 */
export function negotiateMicroversion(header: string | null, max: Microversion): NegotiatedVersion {
  const raw = clusteringEntry(header);
  if (raw === undefined) return { version: MIN_MICROVERSION };
  if (raw.toLowerCase() === "latest") return { version: max };
  const version = parseMicroversion(raw);
  if (!version) {
    throw new SenlinError("InvalidAPIVersionString", `API Version String '${raw}' is of invalid format. It must be of format 'major.minor'.`);
  }
  if (compareMicroversions(version, MIN_MICROVERSION) < 0 || compareMicroversions(version, max) > 0) {
    throw new SenlinError(
      "InvalidGlobalAPIVersion",
      `Version '${raw}' is not supported by the API. Minimum is '${formatMicroversion(MIN_MICROVERSION)}' and maximum is '${formatMicroversion(max)}'.`,
    );
  }
  return { version };
}

/**
 * Throws the 400 a version-gated handler raises below its version, with Senlin's own message
 * (`MethodVersionNotFound`: it names the version asked for, not the one needed).
 */
export function requireMicroversion(version: Microversion, feature: keyof typeof FEATURE_VERSIONS): void {
  if (hasFeature(version, feature)) return;
  throw new SenlinError("MethodVersionNotFound", `API version '${formatMicroversion(version)}' is not supported on this method.`);
}

/** Whether `version` has a feature. */
export function hasFeature(version: Microversion, feature: keyof typeof FEATURE_VERSIONS): boolean {
  return compareMicroversions(version, FEATURE_VERSIONS[feature]) >= 0;
}
