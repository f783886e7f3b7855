import { describe, expect, it } from "vitest";
import { clientCache, endpointSettings } from "./client-cache";
import type { ConfigReader } from "./config";

// Every setting is given in the stack config, which comes before the environment.
const configOf = (values: Record<string, string>): ConfigReader => ({ get: (key) => ({ "clusterform:callTimeout": "30s", "clusterform:unreachableTimeout": "1m", ...values })[key] });

/** A cache of fake clients recording every client made. */
function fakeClients(fail = false) {
  const made: string[] = [];
  const clients = clientCache(
    (config) => endpointSettings("cmassh", config),
    async (settings) => {
      made.push(settings.endpoint);
      if (fail && made.length === 1) throw new Error("module failed to load");
      return { endpoint: settings.endpoint, n: made.length };
    },
  );
  return { clients, made };
}

describe("clientCache", () => {
  it("makes one client per endpoint and answers it to every later call", async () => {
    const { clients, made } = fakeClients();
    const config = configOf({ "clusterform:cmasshEndpoint": "http://a:1" });
    const first = await clients(config);
    expect(await clients(config)).toBe(first);
    expect(made).toEqual(["http://a:1"]);
  });

  it("reads the configuration at every call: another endpoint or call timeout gets its own client", async () => {
    const { clients, made } = fakeClients();
    const a = await clients(configOf({ "clusterform:cmasshEndpoint": "http://a:1" }));
    const b = await clients(configOf({ "clusterform:cmasshEndpoint": "http://b:2" }));
    const slow = await clients(configOf({ "clusterform:cmasshEndpoint": "http://a:1", "clusterform:callTimeout": "90s" }));
    expect([a.n, b.n, slow.n]).toEqual([1, 2, 3]);
    expect(made).toEqual(["http://a:1", "http://b:2", "http://a:1"]);
  });

  it("does not keep a client that failed to be made", async () => {
    const { clients, made } = fakeClients(true);
    const config = configOf({ "clusterform:cmasshEndpoint": "http://a:1" });
    await expect(clients(config)).rejects.toThrow("module failed to load");
    expect(await clients(config)).toEqual({ endpoint: "http://a:1", n: 2 });
    expect(made).toHaveLength(2);
  });
});

describe("endpointSettings", () => {
  it("is the platform's resolved endpoint with the call settings", () => {
    const config = configOf({ "clusterform:vclusterEndpoint": "http://v:9/", "clusterform:unreachableTimeout": "5s", "clusterform:callTimeout": "10s" });
    expect(endpointSettings("vcluster", config)).toEqual({ endpoint: "http://v:9", unreachableTimeoutMs: 5_000, callTimeoutMs: 10_000 });
  });
});
