import { once } from "node:events";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ConfigReader } from "../../core/config";
import { ClusterformError } from "../../core/errors";
import { UNKNOWN } from "../../core/validation";
import type { TestHandler as ResourceHandler } from "../testing";

import { cmasshClient } from "./common";
import { cmasshCluster } from "./cluster/kind";
import { cmasshNodePool } from "./node-pool/kind";
import { refusedUrl, testHandler } from "../testing";

const clusterHandler = testHandler(cmasshCluster);
const nodePoolHandler = testHandler(cmasshNodePool);

type Props = Record<string, unknown>;

const endpointConfig = (url: string): ConfigReader => ({ get: (key) => (key === "clusterform:endpoint" ? url : undefined) });

const cluster: Props = {
  __provider: "p",
  owner: "0123456789abcdef",
  resourceName: "prod",
  name: "prod-eu",
  kubernetesVersion: "1.31.6",
  controlPlane: { instanceType: "standard", count: 1 },
};
const pool: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "batch", name: "batch", clusterName: "prod-eu", instanceType: "gpu", count: 2 };

const QUIET_MS = 250;

/** A TCP server on port 0 that counts connections and never answers. */
async function countingServer() {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    /**
     * Waits out a quiet window. A platform call started without being awaited connects a few
     * milliseconds later (connect-node opens its HTTP/2 session asynchronously; measured 4-5 ms
     * here), so the count is read only after it would have shown up. No fake clock can stand in
     * for real sockets.
     */
    settle: () => new Promise<void>((resolve) => setTimeout(resolve, QUIET_MS)),
    async close(): Promise<void> {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

/** Inputs check and diff see in a preview: valid, invalid, with unknowns, new or updated. */
function previewCalls(handler: ResourceHandler, base: Props, changes: Props[]): Promise<unknown>[] {
  return changes.flatMap((change) => {
    const news = { ...base, ...change };
    return [
      handler.check({}, news),
      handler.check(base, news),
      handler.check(base, { ...news, name: undefined }),
      handler.diff("id", { ...base, status: "RUNNING" }, news),
    ];
  });
}

describe("check and diff never touch the platform", () => {
  let server: Awaited<ReturnType<typeof countingServer>>;

  beforeAll(async () => {
    // The platform's own variable outranks `clusterform:endpoint`; blank counts as unset.
    vi.stubEnv("CLUSTERFORM_CMASSH_ENDPOINT", "");
    server = await countingServer();
  });
  afterAll(async () => {
    (await cmasshClient(endpointConfig(server.url))).close();
    await server.close();
    vi.unstubAllEnvs();
  });

  it("opens no connection on configure", async () => {
    await clusterHandler.configure(endpointConfig(server.url));
    await nodePoolHandler.configure(endpointConfig(server.url));
    await server.settle();
    expect(server.connections()).toBe(0);
  });

  it("opens no connection across 72 check and diff calls of both resources", async () => {
    const results = await Promise.all([
      ...previewCalls(clusterHandler, cluster, [
        {},
        { kubernetesVersion: "1.32.3" },
        { kubernetesVersion: "1.30.0" },
        { kubernetesVersion: UNKNOWN },
        { controlPlane: UNKNOWN },
        { controlPlane: { instanceType: "gpu", count: 3, labels: { app: "web" } } },
        { name: "prod-us", timeouts: { create: "1s" } },
        { name: "Bad_Name" },
        { controlPlane: { instanceType: "huge", count: 0 } },
      ]),
      ...previewCalls(nodePoolHandler, pool, [
        {},
        { count: 5 },
        { count: UNKNOWN },
        { clusterName: "other" },
        { clusterName: UNKNOWN },
        { labels: { tier: "batch" } },
        { instanceType: "standard", timeouts: { delete: "1s" } },
        { count: -1 },
        { labels: { "clusterform.dev/owner": "me" } },
      ]),
    ]);
    await server.settle();
    expect([results.length, server.connections()]).toEqual([72, 0]);
  });

  it("does connect for a read, so the count above can see a platform call", async () => {
    await clusterHandler.configure(endpointConfig(server.url));
    await expect(clusterHandler.read("prod-eu", { ...cluster, timeouts: { update: "300ms" } })).rejects.toThrow(
      /^GetCluster cluster "prod-eu": TIMEOUT: not done after \d+ms \(timeout 300ms\)/,
    );
    expect(server.connections()).toBeGreaterThan(0);
  });
});

// The handlers are this module's: each describe configures them for its own endpoint, so the
// describes run one after the other (vitest runs adjacent describe.concurrent blocks side by side,
// and one's afterAll then closed the client the other's calls were using) and only their tests run
// side by side.
describe("operations against an unreachable endpoint fail within the resource's own timeout", () => {
  let url: string;

  beforeAll(async () => {
    vi.stubEnv("CLUSTERFORM_CMASSH_ENDPOINT", "");
    url = await refusedUrl();
    await clusterHandler.configure(endpointConfig(url));
    await nodePoolHandler.configure(endpointConfig(url));
  });
  afterAll(async () => {
    (await cmasshClient(endpointConfig(url))).close();
    vi.unstubAllEnvs();
  });

  // The time is the deadline's own ("1s") when it passed during a pause between attempts.
  const RETRIED = (operation: string) =>
    new RegExp(
      `^${operation}: TIMEOUT: not done after \\d+(ms|s) \\(timeout 1s\\); still failing after \\d+ attempt\\(s\\): ECONNREFUSED: cannot reach http://127\\.0\\.0\\.1:\\d+: .*ECONNREFUSED`,
    );

  it.concurrent.each<[string, () => Promise<unknown>, RegExp]>([
    [
      "cluster create (looking for an earlier attempt first)",
      () => clusterHandler.create({ ...cluster, autoNamed: false, timeouts: { create: "1s" } }),
      RETRIED('GetCluster cluster "prod-eu"'),
    ],
    ["cluster read", () => clusterHandler.read("prod-eu", { ...cluster, timeouts: { update: "1s" } }), RETRIED('GetCluster cluster "prod-eu"')],
    ["cluster delete", () => clusterHandler.delete("prod-eu", { ...cluster, timeouts: { delete: "1s" } }), RETRIED('DeleteCluster cluster "prod-eu"')],
    [
      "node pool create (a refused connection did nothing, so AddNodePool is sent again)",
      () => nodePoolHandler.create({ ...pool, autoNamed: false, timeouts: { create: "1s" } }),
      RETRIED('AddNodePool pool "batch" of cluster "prod-eu"'),
    ],
    ["node pool read", () => nodePoolHandler.read("prod-eu/batch", { ...pool, timeouts: { update: "1s" } }), RETRIED('GetCluster cluster "prod-eu"')],
    [
      "node pool delete",
      () => nodePoolHandler.delete("prod-eu/batch", { ...pool, timeouts: { delete: "1s" } }),
      RETRIED('DeleteNodePool pool "batch" of cluster "prod-eu"'),
    ],
  ])("%s reports the platform call, the object and the cause", async (_, run, message) => {
    const started = performance.now();
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsedMs = performance.now() - started;
    expect(err).toBeInstanceOf(ClusterformError);
    expect((err as Error).message).toMatch(message);
    expect(elapsedMs).toBeLessThan(2_500);
  });
});

describe("an unreachable platform fails after clusterform:unreachableTimeout, whatever the operation's timeout", () => {
  let url: string;
  let config: ConfigReader;

  beforeAll(async () => {
    vi.stubEnv("CLUSTERFORM_CMASSH_ENDPOINT", "");
    url = await refusedUrl();
    config = { get: (key) => ({ "clusterform:endpoint": url, "clusterform:unreachableTimeout": "1s" })[key] };
    await clusterHandler.configure(config);
    await nodePoolHandler.configure(config);
  });
  afterAll(async () => {
    (await cmasshClient(config)).close();
    vi.unstubAllEnvs();
  });

  // The operations allow 30 minutes: only the unreachable limit can end them within the test's time.
  it.concurrent.each<[string, () => Promise<unknown>, string]>([
    ["cluster create", () => clusterHandler.create({ ...cluster, autoNamed: false, timeouts: { create: "30m" } }), 'GetCluster cluster "prod-eu"'],
    ["cluster read", () => clusterHandler.read("prod-eu", { ...cluster, timeouts: { update: "30m" } }), 'GetCluster cluster "prod-eu"'],
    ["cluster delete", () => clusterHandler.delete("prod-eu", { ...cluster, timeouts: { delete: "30m" } }), 'DeleteCluster cluster "prod-eu"'],
    ["node pool create", () => nodePoolHandler.create({ ...pool, autoNamed: false, timeouts: { create: "30m" } }), 'AddNodePool pool "batch" of cluster "prod-eu"'],
    ["node pool delete", () => nodePoolHandler.delete("prod-eu/batch", { ...pool, timeouts: { delete: "30m" } }), 'DeleteNodePool pool "batch" of cluster "prod-eu"'],
  ])("%s names the address and the error", async (_, run, operation) => {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "Unavailable", platformCode: "UNREACHABLE" });
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${operation.replace(/[()]/g, "\\$&")}: UNREACHABLE: cannot reach ${url.replace(/\./g, "\\.")}: connect ECONNREFUSED [^ ]+ \\(ECONNREFUSED\\); ` +
          "still unreachable after \\d+(ms|s), giving up \\(limit 1s, set by clusterform:unreachableTimeout\\)$",
      ),
    );
  });
});
