import { afterAll, afterEach, beforeEach } from "vitest";
import { type JsonResponse, removeDataDirs, startTestPlane, type TestPlane } from "../testing";

/** The `Authorization` header for HTTP Basic credentials. */
export function basicAuth(user = "admin", password = "admin"): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` };
}

/** A node as the admin view shows it. */
export interface AdminNode {
  cluster: string;
  name: string;
  id: string;
  nodearray: string;
  machineType: string;
  state: string;
  status: string;
  targetState: string;
  statusMessage: string;
  privateIp: string;
  placementGroup: string;
  attributes: Record<string, unknown>;
}

/** A CycleCloud REST caller bound to a test plane, authenticated as admin/admin. */
export interface CycleCloudCaller {
  get(path: string): Promise<JsonResponse>;
  post(path: string, body?: unknown): Promise<JsonResponse>;
  /** Creates `count` nodes of a nodearray of `demo` and returns the operation id. */
  create(nodearray: string, count: number, extra?: Record<string, unknown>): Promise<string>;
  /** The admin view of every node, by name. */
  nodes(): Promise<Map<string, AdminNode>>;
  /** `name: state` of every node, in creation order. */
  states(): Promise<Record<string, string>>;
}

/** Binds a {@link CycleCloudCaller} to a plane. */
export function cycleCloud(t: TestPlane): CycleCloudCaller {
  const auth = basicAuth();
  const caller: CycleCloudCaller = {
    get: (path) => t.http("GET", path, undefined, auth),
    post: (path, body) => t.http("POST", path, body, { ...auth, "Content-Type": "application/json" }),
    async create(nodearray, count, extra = {}) {
      const response = await caller.post("/clusters/demo/nodes/create", { sets: [{ nodearray, count, ...extra }] });
      if (response.status !== 202) throw new Error(`create failed: ${response.status} ${response.text}`);
      return (response.body as { operationId: string }).operationId;
    },
    async nodes() {
      const body = (await t.http("GET", "/_local/cyclecloud/nodes")).body as { nodes: AdminNode[] };
      return new Map(body.nodes.map((n) => [n.name, n]));
    },
    async states() {
      return Object.fromEntries([...(await caller.nodes()).values()].map((n) => [n.name, n.state]));
    },
  };
  return caller;
}

/**
 * Gives every test of the file a fresh local control plane (fake clock, new data directory) and a
 * CycleCloud caller on it, handed to `use` before each test; closes it after.
 */
export function onAFreshPlaneEachTest(use: (plane: TestPlane, caller: CycleCloudCaller) => void): void {
  let plane: TestPlane | undefined;
  afterAll(removeDataDirs);
  beforeEach(async () => {
    plane = await startTestPlane();
    use(plane, cycleCloud(plane));
  });
  afterEach(async () => {
    await plane?.close();
  });
}
