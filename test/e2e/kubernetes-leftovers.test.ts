import * as net from "node:net";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Phase, VClusterService } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { packageWorkspace } from "../harness/workspace";

// Nothing outlives its object: a plane with --kubernetes that ends without stopping its API servers
// (SIGKILL, as a crash or an OOM kill ends it) leaves them running, holding the clusters' ports and
// answering as them. The next start on the same data must end them, and a delete after it must
// stop the cluster's API server, whichever process serves it, and free its objects in kine: for a
// cma-ssh cluster and for a vcluster alike.

interface ApiServer {
  key: string;
  port: number;
  prefix: string;
  state: string;
  pids: number[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether anything accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("clusterform-local --kubernetes after a crash", () => {
  let plane: LocalPlane;
  let before: ApiServer[];
  const servers = async () => (await plane.admin<{ apiServers: ApiServer[] }>("/_local/kubernetes/api-servers")).apiServers;
  const until = async (what: string, probe: () => Promise<boolean>) => {
    await expect.poll(probe, { timeout: 180_000, interval: 250, message: what }).toBe(true);
  };
  const rest = (method: string, path: string, body?: unknown) =>
    fetch(`${plane.url}${path}`, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  // The plane keeps its port across the restart, so one client serves both runs.
  const vcluster = () => createClient(VClusterService, createGrpcTransport({ baseUrl: plane.url }));
  const vclusterPhase = async () => (await vcluster().getVCluster({ name: "survivor", namespace: "team" })).vcluster?.status?.phase;
  /** How many keys kine holds under `prefix` (read from its SQLite table, as the plane deletes them). */
  const kineKeys = (prefix: string) => {
    const kine = new DatabaseSync(path.join(plane.dataDir, "kubernetes", "kine.db"), { readOnly: true });
    try {
      return Number((kine.prepare("SELECT COUNT(*) AS n FROM kine WHERE substr(name, 1, ?) = ?").get(prefix.length + 1, `${prefix}/`) as { n: number }).n);
    } finally {
      kine.close();
    }
  };

  beforeAll(async () => {
    const workspace = packageWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.1, flags: ["--kubernetes"] });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("ends the API servers a killed plane left running when it starts again", async () => {
    const created = await rest("POST", "/api/v1/cluster", { name: "survivor", k8s_version: "1.31.6", control_plane_nodes: { instanceType: "standard", count: 1 } });
    expect(created.status).toBe(200);
    await vcluster().createVCluster({ name: "survivor", namespace: "team", spec: { kubernetesVersion: "1.29.0", replicas: 1 } });
    await until("the cluster to be RUNNING", async () => ((await (await rest("GET", "/api/v1/cluster?name=survivor")).json()) as { cluster?: { status?: string } }).cluster?.status === "RUNNING");
    await until("the vcluster to be RUNNING", async () => (await vclusterPhase()) === Phase.RUNNING);
    before = await servers();
    expect(before.map((s) => [s.key.split("/")[0], s.state])).toEqual([
      ["cmassh", "running"],
      ["vcluster", "running"],
    ]);
    // Each API server wrote its cluster's objects (namespaces, service accounts) under its prefix.
    for (const server of before) expect(kineKeys(server.prefix)).toBeGreaterThan(0);
    const pids = before.flatMap((s) => s.pids);
    expect(pids.length).toBe(4);

    await plane.kill();
    // What a crash leaves: the API servers and their controller managers still run, and still answer.
    expect(pids.filter(alive)).toEqual(pids);
    for (const server of before) expect(await listening(server.port)).toBe(true);

    await plane.restart();
    await until("both API servers to run again", async () => (await servers()).every((s) => s.state === "running"));
    const after = await servers();
    expect(after.map((s) => [s.key, s.port])).toEqual(before.map((s) => [s.key, s.port]));
    expect(pids.filter(alive)).toEqual([]);
    expect(after.flatMap((s) => s.pids).some((pid) => pids.includes(pid))).toBe(false);
  });

  it.each([
    ["cma-ssh cluster", "cmassh", () => rest("DELETE", "/api/v1/cluster?name=survivor"), async () => (await rest("GET", "/api/v1/cluster?name=survivor")).status === 404],
    [
      "vcluster",
      "vcluster",
      async () => vcluster().deleteVCluster({ name: "survivor", namespace: "team" }),
      async () => (await vcluster().listVClusters({ namespace: "team" })).vclusters.length === 0,
    ],
  ] as const)("stops a %s's API server, frees its port and its objects in kine when it is deleted after that restart", async (_label, api, remove, gone) => {
    const serving = (await servers()).find((s) => s.key.startsWith(`${api}/`))!;
    const killed = before.find((s) => s.key === serving.key)!;
    await remove();
    await until("the cluster to be gone", gone);
    await until("its API server to go", async () => !(await servers()).some((s) => s.key === serving.key));
    expect([...killed.pids, ...serving.pids].filter(alive)).toEqual([]);
    expect(await listening(serving.port)).toBe(false);
    expect(kineKeys(serving.prefix)).toBe(0);
  });
});
