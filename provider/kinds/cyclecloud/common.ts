import type { CycleCloudClient } from "../../clients/cyclecloud/client";
import { clientCache, endpointSettings } from "../../core/client-cache";
import type { ConfigReader, Env } from "../../core/config";
import { ClusterformError } from "../../core/errors";

/** Where each credential is read from, in order. */
const CREDENTIAL_SOURCES = {
  username: { config: "clusterform:cyclecloudUsername", env: "CLUSTERFORM_CYCLECLOUD_USERNAME" },
  password: { config: "clusterform:cyclecloudPassword", env: "CLUSTERFORM_CYCLECLOUD_PASSWORD" },
} as const;

/** HTTP Basic credentials of CycleCloud. */
export interface CycleCloudCredentials {
  username: string;
  password: string;
}

/**
 * The credentials: stack config `clusterform:cyclecloudUsername` / `clusterform:cyclecloudPassword`
 * (set the password with `--secret`), else the environment variables
 * `CLUSTERFORM_CYCLECLOUD_USERNAME` / `CLUSTERFORM_CYCLECLOUD_PASSWORD`. Each is read separately.
 * @throws ClusterformError InvalidArgument naming the keys when one is missing.
 */
export function resolveCredentials(config: ConfigReader, env: Env = process.env): CycleCloudCredentials {
  const read = (which: keyof typeof CREDENTIAL_SOURCES) => {
    const source = CREDENTIAL_SOURCES[which];
    const value = config.get(source.config) || env[source.env];
    if (value) return value;
    throw new ClusterformError({
      code: "InvalidArgument",
      platformCode: "INVALID_CONFIG",
      operation: "reading the CycleCloud credentials",
      platformMessage: `no CycleCloud ${which}: set stack config ${source.config}${which === "password" ? " (with --secret)" : ""} or the environment variable ${source.env}`,
    });
  };
  return { username: read("username"), password: read("password") };
}

/**
 * The CycleCloud client for the endpoint and credentials the configuration names now, one per
 * endpoint, credentials and call settings (core/client-cache.ts). TLS certificates are always
 * verified; a private CA is trusted through Node's NODE_EXTRA_CA_CERTS (see docs/platforms/cyclecloud.md).
 */
export const cycleCloudClient: (config: ConfigReader) => Promise<CycleCloudClient> = clientCache(
  (config) => ({ ...endpointSettings("cyclecloud", config), ...resolveCredentials(config) }),
  async (settings) => (await import("../../clients/cyclecloud/client")).createCycleCloudClient(settings),
);

/** True when the error means the cluster itself does not exist. */
export function isClusterNotFound(err: unknown): boolean {
  return err instanceof ClusterformError && err.code === "NotFound" && /cluster .* not found/i.test(err.platformMessage);
}
