import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Cluster, ClusterStatus } from "../proto/gen/cmassh/api_pb";
import { startLocalControlPlane } from "./server";
import { createClusterBody, makeDataDir, startTestPlane, type TestPlane, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

describe("one port for gRPC and HTTP/1.1", () => {
  it("serves the gRPC service over h2c and the REST gateway over HTTP/1.1 on the same port", async () => {
    t = await startTestPlane();
    const created = await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    expect(created.ok).toBe(true);
    expect(created.cluster?.status).toBe(ClusterStatus.PROVISIONING);

    const rest = await t.http("GET", "/api/v1/cluster?name=c1");
    expect(rest).toMatchObject({ status: 200, body: { ok: true, cluster: { name: "c1", status: "PROVISIONING" } } });
    expect(new URL(t.plane.url).port).toBe(String(t.plane.port));
  });

  it("also answers Connect-protocol clients over HTTP/1.1", async () => {
    t = await startTestPlane();
    const client = createClient(Cluster, createConnectTransport({ baseUrl: t.plane.url, httpVersion: "1.1" }));
    expect((await client.getClusterList({})).ok).toBe(true);
  });

  it("answers unknown paths outside the APIs with 404 JSON", async () => {
    t = await startTestPlane();
    const response = await t.http("GET", "/nowhere");
    expect(response).toEqual({ status: 404, body: { error: "no route for GET /nowhere" }, text: expect.any(String) });
  });

  it("rejects invalid options naming the option and what is allowed", async () => {
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), port: -1 })).rejects.toThrow(
      "invalid port -1: expected an integer from 0 to 65535",
    );
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), timeScale: -2 })).rejects.toThrow("invalid timeScale -2");
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), cmasshVersions: ["latest"] })).rejects.toThrow(
      'invalid cmassh version "latest"',
    );
  });

  it("creates state.db in the data directory and can be closed twice", async () => {
    t = await startTestPlane();
    await t.close();
    await t.close();
    const { existsSync } = await import("node:fs");
    expect(existsSync(`${t.dataDir}/state.db`)).toBe(true);
  });

  it("reports an address already in use", async () => {
    t = await startTestPlane();
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), port: t.plane.port })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe("REST gateway mapping", () => {
  it("writes original proto field names, enum names and omits zero values", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.http("POST", "/api/v1/cluster", createClusterBody("c1"));
    const got = await t.http("GET", "/api/v1/cluster?name=c1");
    const body = got.body as { cluster: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["ok", "cluster"]);
    expect(Object.keys(body.cluster)).toEqual(["name", "kubeconfig", "status"]);
    expect(body.cluster.status).toBe("RUNNING");

    const version = await t.http("GET", "/api/v1/version");
    const info = (version.body as { version_information: Record<string, string> }).version_information;
    expect(Object.keys(info)).toEqual(["git_commit", "build_date", "go_version", "compiler", "platform"]);
  });

  it("omits `ok` and empty lists when they are zero values", async () => {
    t = await startTestPlane();
    expect(await t.http("GET", "/api/v1/cluster/list")).toMatchObject({ status: 200, body: { ok: true } });
    expect((await t.http("GET", "/api/v1/cluster/list")).text).toBe('{"ok":true}');
  });

  it("accepts lowerCamelCase JSON names in bodies as jsonpb does", async () => {
    t = await startTestPlane();
    const response = await t.http("POST", "/api/v1/cluster", {
      name: "c1",
      k8sVersion: "1.30.10",
      controlPlaneNodes: { instanceType: "standard", count: 1 },
      workerNodePools: [{ name: "p1", instanceType: "gpu", count: 3 }],
    });
    expect(response.status).toBe(200);
    const admin = await t.http("GET", "/_local/cmassh/clusters");
    expect(admin.body).toMatchObject({
      clusters: [{ name: "c1", k8sVersion: "1.30.10", pools: [{ name: "p1", instanceType: "gpu", count: 3 }] }],
    });
  });

  it("reads repeated query parameters for DeleteNodePool", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({
      name: "c1",
      workerNodePools: [
        { name: "a", count: 1 },
        { name: "b", count: 1 },
        { name: "c", count: 1 },
      ],
    });
    const response = await t.http("DELETE", "/api/v1/cluster/pool?clusterName=c1&node_pool_names=a&node_pool_names=b");
    expect(response).toMatchObject({ status: 200, body: { ok: true } });
    const admin = (await t.http("GET", "/_local/cmassh/clusters")).body as { clusters: { pools: { name: string }[] }[] };
    expect(admin.clusters[0].pools.map((p) => p.name)).toEqual(["c"]);
  });

  it.each([
    ["a gRPC NOT_FOUND", "GET", "/api/v1/cluster?name=ghost", undefined, 404, 5, 'cluster "ghost" not found'],
    ["a gRPC INTERNAL", "POST", "/api/v1/cluster/pool", { clusterName: "c1", worker_node_pools: [{ name: "workers" }] }, 500, 13, 'node pool "workers" already exists'],
    ["an INVALID_ARGUMENT", "PUT", "/api/v1/cluster/pool", { clusterName: "c1", node_pools: [{ name: "workers", count: -1 }] }, 400, 3, 'invalid count -1 for node pool "workers"'],
    ["a refused create (INTERNAL, as the real server answers)", "POST", "/api/v1/cluster", { name: "Bad_Name" }, 500, 13, 'invalid cluster name "Bad_Name"'],
    ["a FAILED_PRECONDITION", "PUT", "/api/v1/cluster/upgrade", { name: "c1", version: "1.0.0" }, 412, 9, 'version "1.0.0" is not offered'],
  ])("maps %s to HTTP %s with the grpc-gateway error body", async (_label, method, path, body, status, code, message) => {
    t = await startTestPlane();
    await t.http("POST", "/api/v1/cluster", createClusterBody("c1"));
    const response = await t.http(method, path, body);
    expect(response.status).toBe(status);
    const error = response.body as { error: string; code: number; message: string };
    expect(Object.keys(error)).toEqual(["error", "code", "message"]);
    expect(error.code).toBe(code);
    expect(error.error).toContain(message);
    expect(error.message).toBe(error.error);
  });

  it("rejects unknown body fields and malformed JSON with 400 INVALID_ARGUMENT", async () => {
    t = await startTestPlane();
    const unknown = await t.http("POST", "/api/v1/cluster", { name: "c1", colour: "red" });
    expect(unknown).toMatchObject({ status: 400, body: { code: 3 } });
    expect((unknown.body as { error: string }).error).toContain("colour");
    expect(await t.http("POST", "/api/v1/cluster", "{not json")).toMatchObject({ status: 400, body: { code: 3 } });
  });

  it("treats an empty body as an empty message", async () => {
    t = await startTestPlane();
    const response = await t.http("PUT", "/api/v1/cluster/upgrade", "");
    expect(response).toMatchObject({ status: 404, body: { code: 5, error: 'cluster "" not found' } });
  });

  it("answers unmatched gateway routes in plain text like grpc-gateway v1", async () => {
    t = await startTestPlane();
    expect(await t.http("GET", "/api/v1/clusters")).toMatchObject({ status: 404, text: "Not Found\n" });
    expect(await t.http("PATCH", "/api/v1/cluster")).toMatchObject({ status: 405, text: "Method Not Allowed\n" });
  });
});
