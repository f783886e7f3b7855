import { createHash } from "node:crypto";
import type { PelotonClient } from "../../clients/peloton/client";
import { clientCache, endpointSettings } from "../../core/client-cache";
import type { ConfigReader } from "../../core/config";
import { ClusterformError } from "../../core/errors";
import { isUnknown, UNKNOWN } from "../../core/validation";

/**
 * The Peloton client for the endpoint the configuration names now (`clusterform:pelotonEndpoint`,
 * then the shared keys), one per endpoint and call settings (core/client-cache.ts), so a run
 * reuses its HTTP/2 connection.
 */
export const pelotonClient: (config: ConfigReader) => Promise<PelotonClient> = clientCache(
  (config) => endpointSettings("peloton", config),
  async (settings) => (await import("../../clients/peloton/client")).createPelotonClient(settings),
);

/** Runs a read and answers undefined when the platform says NOT_FOUND. */
export async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
    throw err;
  }
}

/** True when the error is the platform's NOT_FOUND. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ClusterformError && err.code === "NotFound";
}

/**
 * A UUID (version 8, RFC 9562 "custom") made from a hash of `parts`: the same resource of the same
 * stack gets the same id in every run, which is what lets a create interrupted after the platform
 * took it be found and adopted. Unknown while any part is unknown (preview).
 */
export function deterministicUuid(...parts: unknown[]): string {
  if (parts.some(isUnknown)) return UNKNOWN;
  const hex = createHash("sha256").update(JSON.stringify(["clusterform", ...parts])).digest("hex").slice(0, 32).split("");
  hex[12] = "8";
  hex[16] = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A string that is a known, non-empty value (not the preview sentinel). */
export function isKnownString(value: unknown): value is string {
  return typeof value === "string" && value !== "" && !isUnknown(value);
}
