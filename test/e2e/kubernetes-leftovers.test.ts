import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { packageWorkspace } from "../harness/workspace";

// Nothing outlives its object: a plane with --kubernetes that ends without stopping its API servers
// (SIGKILL, as a crash or an OOM kill ends it) leaves them running, holding the clusters' ports and
// answering as them. The next start on the same data must end them, and a delete after it must
// stop the cluster's API server, whichever process serves it.

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
    await until("the cluster to be RUNNING", async () => ((await (await rest("GET", "/api/v1/cluster?name=survivor")).json()) as { cluster?: { status?: string } }).cluster?.status === "RUNNING");
    before = await servers();
    expect(before.map((s) => s.state)).toEqual(["running"]);
    const pids = before[0].pids;
    expect(pids.length).toBe(2);

    await plane.kill();
    // What a crash leaves: the API server and its controller manager still run, and still answer.
    expect(pids.filter(alive)).toEqual(pids);
    expect(await listening(before[0].port)).toBe(true);

    await plane.restart();
    await until("the API server to run again", async () => (await servers()).some((s) => s.state === "running"));
    const after = await servers();
    expect(after.map((s) => [s.key, s.port])).toEqual([[before[0].key, before[0].port]]);
    expect(pids.filter(alive)).toEqual([]);
    expect(after[0].pids.some((pid) => pids.includes(pid))).toBe(false);
  });

  it("stops the cluster's API server and frees its port when the cluster is deleted after that restart", async () => {
    const serving = (await servers())[0];
    expect((await rest("DELETE", "/api/v1/cluster?name=survivor")).status).toBe(200);
    await until("the cluster to be gone", async () => (await rest("GET", "/api/v1/cluster?name=survivor")).status === 404);
    await until("its API server to go", async () => (await servers()).length === 0);
    expect([...before[0].pids, ...serving.pids].filter(alive)).toEqual([]);
    expect(await listening(serving.port)).toBe(false);
  });
});
