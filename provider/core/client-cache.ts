import { type CallSettings, type ConfigReader, type Platform, resolveCallSettings, resolveEndpoint } from "./config";

/** What most platform clients are made from: the endpoint the configuration names and the call settings. */
export interface EndpointSettings extends CallSettings {
  /** The resolved endpoint URL. */
  endpoint: string;
}

/** The endpoint and call settings of `platform` as the configuration gives them now. */
export function endpointSettings(platform: Platform, config: ConfigReader): EndpointSettings {
  return { endpoint: resolveEndpoint(platform, config).url, ...resolveCallSettings(config) };
}

/**
 * A per-settings client cache: the returned function resolves the settings from the configuration
 * at every call (never captured, so a changed configuration is always seen) and answers the one
 * client made for those settings, so that a run reuses its connections and tokens. The client is
 * made at the first platform call: `create` should import the client module then, so that check
 * and diff (a preview) never load a transport. A client that fails to be made is not kept.
 * @param settingsOf - the settings the client depends on; their JSON is the cache key.
 */
export function clientCache<S, C>(settingsOf: (config: ConfigReader) => S, create: (settings: S) => Promise<C>): (config: ConfigReader) => Promise<C> {
  const clients = new Map<string, Promise<C>>();
  return (config) => {
    const settings = settingsOf(config);
    const key = JSON.stringify(settings);
    let client = clients.get(key);
    if (!client) {
      client = create(settings);
      clients.set(key, client);
      client.catch(() => clients.delete(key));
    }
    return client;
  };
}
