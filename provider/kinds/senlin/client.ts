import type { SenlinClient } from "../../clients/senlin/client";
import { type ConfigReader, resolveCallSettings } from "../../core/config";
import { resolveOpenStackSettings } from "../openstack/credentials";

const clients = new Map<string, Promise<SenlinClient>>();

/**
 * The Senlin client for the credentials and endpoint the configuration gives now (read at every
 * call, never captured). Clients are kept per settings so that one process reuses its Keystone
 * token until it is due for renewal; the token cache itself lives in the Keystone client.
 */
export function senlinClient(config: ConfigReader): Promise<SenlinClient> {
  const settings = resolveOpenStackSettings("senlin", config);
  const call = resolveCallSettings(config);
  const key = JSON.stringify([settings.credentials, settings.region, settings.interface, settings.endpoint, call]);
  let client = clients.get(key);
  if (!client) {
    // Imported at the first platform call: check and diff (a preview) never load the client and
    // its transport.
    client = import("../../clients/senlin/client").then((m) => m.createSenlinClient({
      credentials: settings.credentials,
      endpoint: settings.endpoint,
      region: settings.region,
      interface: settings.interface,
      ...call,
    }));
    clients.set(key, client);
  }
  return client;
}
