import type { CycleCloudClient } from "../../clients/cyclecloud/client";
import { type ConfigReader, type Env, resolveCallSettings, resolveEndpoint } from "../../core/config";
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

const clients = new Map<string, Promise<CycleCloudClient>>();

/**
 * The CycleCloud client for the endpoint and credentials the configuration names now (resolved at
 * every call, never captured). TLS certificates are always verified; a private CA is trusted
 * through Node's NODE_EXTRA_CA_CERTS (see docs/platforms/cyclecloud.md).
 */
export function cycleCloudClient(config: ConfigReader): Promise<CycleCloudClient> {
  const { url } = resolveEndpoint("cyclecloud", config);
  const settings = resolveCallSettings(config);
  const { username, password } = resolveCredentials(config);
  const key = JSON.stringify([url, settings, username, password]);
  let client = clients.get(key);
  if (!client) {
    // Imported at the first platform call: check and diff (a preview) never load the client and
    // its transport.
    client = import("../../clients/cyclecloud/client").then((m) => m.createCycleCloudClient({ endpoint: url, username, password, ...settings }));
    clients.set(key, client);
  }
  return client;
}

/** True when the error means the cluster itself does not exist. */
export function isClusterNotFound(err: unknown): boolean {
  return err instanceof ClusterformError && err.code === "NotFound" && /cluster .* not found/i.test(err.platformMessage);
}
