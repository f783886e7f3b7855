import type { SenlinClient } from "../../clients/senlin/client";
import { clientCache } from "../../core/client-cache";
import { type ConfigReader, resolveCallSettings } from "../../core/config";
import { resolveOpenStackSettings } from "../openstack/credentials";

/** What a Senlin client is made from (never where each value came from: that is not part of the key). */
function senlinSettings(config: ConfigReader) {
  const { credentials, region, interface: iface, endpoint } = resolveOpenStackSettings("senlin", config);
  return { credentials, region, interface: iface, endpoint, ...resolveCallSettings(config) };
}

/**
 * The Senlin client for the credentials and endpoint the configuration gives now, one per settings
 * (core/client-cache.ts), so that one process reuses its Keystone token until it is due for
 * renewal; the token cache itself lives in the Keystone client.
 */
export const senlinClient: (config: ConfigReader) => Promise<SenlinClient> = clientCache(
  senlinSettings,
  async (settings) => (await import("../../clients/senlin/client")).createSenlinClient(settings),
);
