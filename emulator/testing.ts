import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Cluster } from "../proto/gen/cmassh/api_pb";
import { createFakeClock, type FakeClock } from "./clock";
import { type LocalControlPlane, type LocalControlPlaneOptions, startLocalControlPlane } from "./server";

/** A JSON HTTP response as tests read it. */
export interface JsonResponse {
  status: number;
  body: unknown;
  text: string;
}

/** A control plane on a free port with a temporary data directory, a fake clock and clients. */
export interface TestPlane {
  plane: LocalControlPlane;
  clock: FakeClock;
  dataDir: string;
  /** gRPC (h2c) client of `cmassh.Cluster`. */
  cmassh: Client<typeof Cluster>;
  /** Sends an HTTP/1.1 request with an optional JSON body. */
  http(method: string, pathAndQuery: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  /** Stops the server; the data directory is kept for restarts. */
  close(): Promise<void>;
}

const createdDirs = new Set<string>();

/** Removes every directory {@link makeDataDir} created; call it after all tests of a file. */
export function removeDataDirs(): void {
  for (const dir of createdDirs) fs.rmSync(dir, { recursive: true, force: true });
  createdDirs.clear();
}

/** Creates a fresh temporary directory; {@link removeDataDirs} deletes it. */
export function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clusterform-emulator-"));
  createdDirs.add(dir);
  return dir;
}

/**
 * Starts a control plane for a test: port 0, fake clock unless one is given, fresh data directory
 * unless one is given.
 */
export async function startTestPlane(opts: Partial<LocalControlPlaneOptions> & { clock?: FakeClock } = {}): Promise<TestPlane> {
  const clock = opts.clock ?? createFakeClock();
  const dataDir = opts.dataDir ?? makeDataDir();
  const plane = await startLocalControlPlane({ ...opts, port: 0, dataDir, clock });
  const cmassh = createClient(Cluster, createGrpcTransport({ baseUrl: plane.url }));
  const http: TestPlane["http"] = async (method, pathAndQuery, body, headers = {}) => {
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await fetch(`${plane.url}${pathAndQuery}`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text };
  };
  return { plane, clock, dataDir, cmassh, http, close: () => plane.close() };
}

/** The request body the upstream e2e scripts send to create a cluster, with overrides. */
export function createClusterBody(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    k8s_version: "1.30.10",
    control_plane_nodes: { labels: [{ name: "role", value: "cp" }], instanceType: "standard", count: 1 },
    worker_node_pools: [{ name: "workers", labels: [{ name: "tier", value: "app" }], instanceType: "standard", count: 2 }],
    ...overrides,
  };
}
