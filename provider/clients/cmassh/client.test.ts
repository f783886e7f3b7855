import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cluster, ClusterStatus } from "../../../proto/gen/cmassh/api_pb";
import { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { type FakeTime, fakeTime } from "../../core/testing";
import { type CmasshClient, createCmasshClient } from "./client";

/** One request the fake received. */
interface Received {
  method: string;
  requestId: string | null;
  timeoutMs: number | undefined;
  request: unknown;
}

/** A tiny in-memory fake of cma-ssh's Cluster service, scripted per test. */
function fakeCluster() {
  const state = {
    received: [] as Received[],
    /** Codes to fail with, per method, consumed one per call before the real behaviour runs. */
    failures: {} as Record<string, Code[]>,
    clusters: new Map<string, ClusterStatus>([["prod", ClusterStatus.RUNNING]]),
    /** When set, the handler waits for the call's abort signal (a hung server). */
    hang: false,
  };
  async function enter(method: string, request: unknown, ctx: HandlerContext): Promise<void> {
    state.received.push({ method, requestId: ctx.requestHeader.get("x-request-id"), timeoutMs: ctx.timeoutMs(), request });
    if (state.hang) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    const code = state.failures[method]?.shift();
    if (code !== undefined) throw new ConnectError(`${method} scripted failure`, code);
  }
  function existing(name: string): ClusterStatus {
    const status = state.clusters.get(name);
    if (status === undefined) throw new ConnectError(`cluster ${name} not found`, Code.NotFound);
    return status;
  }
  const impl = {
    async createCluster(req: { name: string }, ctx: HandlerContext) {
      await enter("CreateCluster", req, ctx);
      state.clusters.set(req.name, ClusterStatus.PROVISIONING);
      return { ok: true, cluster: { name: req.name, status: ClusterStatus.PROVISIONING } };
    },
    async getCluster(req: { name: string }, ctx: HandlerContext) {
      await enter("GetCluster", req, ctx);
      return { ok: true, cluster: { name: req.name, status: existing(req.name), kubeconfig: "apiVersion: v1" } };
    },
    async deleteCluster(req: { name: string }, ctx: HandlerContext) {
      // The delete lands before any scripted failure: models a reply lost after the work was done.
      const status = state.clusters.get(req.name);
      state.clusters.delete(req.name);
      await enter("DeleteCluster", req, ctx);
      if (status === undefined) throw new ConnectError(`cluster ${req.name} not found`, Code.NotFound);
      return { ok: true, status: "Deleted" };
    },
    async getClusterList(req: object, ctx: HandlerContext) {
      await enter("GetClusterList", req, ctx);
      return { ok: true, clusters: [...state.clusters].map(([name, status]) => ({ name, status })) };
    },
    async getVersionInformation(req: object, ctx: HandlerContext) {
      await enter("GetVersionInformation", req, ctx);
      return { ok: true, versionInformation: { gitCommit: "abc123", goVersion: "go1.12", platform: "linux/amd64" } };
    },
    async addNodePool(req: { clusterName: string }, ctx: HandlerContext) {
      await enter("AddNodePool", req, ctx);
      existing(req.clusterName);
      return { ok: true };
    },
    async deleteNodePool(req: { clusterName: string }, ctx: HandlerContext) {
      await enter("DeleteNodePool", req, ctx);
      existing(req.clusterName);
      return { ok: true };
    },
    async scaleNodePool(req: { clusterName: string; nodePools: { name: string }[] }, ctx: HandlerContext) {
      await enter("ScaleNodePool", req, ctx);
      existing(req.clusterName);
      if (req.nodePools.some((p) => p.name !== "gpu")) throw new ConnectError("node pool not found", Code.NotFound);
      return { ok: true };
    },
    async getUpgradeClusterInformation(req: { name: string }, ctx: HandlerContext) {
      await enter("GetUpgradeClusterInformation", req, ctx);
      return { versions: ["1.12.6", "1.13.4"] };
    },
    async upgradeCluster(req: { name: string }, ctx: HandlerContext) {
      await enter("UpgradeCluster", req, ctx);
      existing(req.name);
      return { ok: true };
    },
  };
  return { state, impl };
}

let server: http2.Http2Server;
let fake: ReturnType<typeof fakeCluster>;
let client: CmasshClient;
let endpoint: string;
let time: FakeTime = fakeTime();
const fakeSleep = (ms: number) => time.sleep(ms);
const fakeClock = () => time.nowMs;

beforeEach(async () => {
  fake = fakeCluster();
  server = http2.createServer(connectNodeAdapter({ routes: (router) => router.service(Cluster, fake.impl) }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  time = fakeTime();
  client = createCmasshClient({ endpoint, requestIdPrefix: "test", sleep: fakeSleep, random: () => 0.999_999, clock: fakeClock });
});

afterEach(async () => {
  client.close();
  await new Promise((resolve) => server.close(resolve));
});

const methods = () => fake.state.received.map((r) => r.method);

describe("cma-ssh client", () => {
  it("sends a unique x-request-id with the configured prefix on every call", async () => {
    await client.getCluster("prod");
    await client.getClusterList();
    const ids = fake.state.received.map((r) => r.requestId);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^test-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("sends plain specs as wire messages and returns plain objects with status names", async () => {
    const created = await client.createCluster({
      name: "dev",
      k8sVersion: "1.13.4",
      controlPlaneNodes: { instanceType: "standard", count: 1, labels: [{ name: "role", value: "cp" }] },
      workerNodePools: [{ name: "gpu", instanceType: "large", count: 2 }],
    });
    expect(created).toEqual({ name: "dev", status: "PROVISIONING", statusMessage: "" });
    expect(fake.state.received[0].request).toMatchObject({
      name: "dev",
      k8sVersion: "1.13.4",
      controlPlaneNodes: { instanceType: "standard", count: 1, labels: [{ name: "role", value: "cp" }] },
      workerNodePools: [{ name: "gpu", instanceType: "large", count: 2, labels: [] }],
    });
    expect(await client.getCluster("prod")).toEqual({ name: "prod", status: "RUNNING", statusMessage: "", kubeconfig: "apiVersion: v1" });
    expect(await client.getClusterList()).toEqual([
      { name: "prod", status: "RUNNING", statusMessage: "" },
      { name: "dev", status: "PROVISIONING", statusMessage: "" },
    ]);
    expect(await client.getUpgradeClusterInformation("prod")).toEqual(["1.12.6", "1.13.4"]);
    expect(await client.getVersionInformation()).toEqual({
      gitVersion: "",
      gitCommit: "abc123",
      gitTreeState: "",
      buildDate: "",
      goVersion: "go1.12",
      compiler: "",
      platform: "linux/amd64",
    });
  });

  it("sends pool operations with the cluster name and pool specs", async () => {
    await client.scaleNodePool("prod", [{ name: "gpu", count: 5 }]);
    await client.addNodePool("prod", [{ name: "cpu", instanceType: "small", count: 1, labels: [{ name: "a", value: "b" }] }]);
    await client.deleteNodePool("prod", ["cpu", "old"]);
    await client.upgradeCluster("prod", "1.13.4");
    expect(fake.state.received.map((r) => [r.method, r.request])).toMatchObject([
      ["ScaleNodePool", { clusterName: "prod", nodePools: [{ name: "gpu", count: 5 }] }],
      ["AddNodePool", { clusterName: "prod", workerNodePools: [{ name: "cpu", instanceType: "small", count: 1, labels: [{ name: "a", value: "b" }] }] }],
      ["DeleteNodePool", { clusterName: "prod", nodePoolNames: ["cpu", "old"] }],
      ["UpgradeCluster", { name: "prod", version: "1.13.4" }],
    ]);
  });

  it("translates NOT_FOUND into NotFound naming the operation and the platform code", async () => {
    const err = await client.getCluster("nope").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClusterformError);
    expect([(err as ClusterformError).code, (err as ClusterformError).platformCode]).toEqual(["NotFound", "NOT_FOUND"]);
    expect((err as Error).message).toBe('GetCluster cluster "nope": NOT_FOUND: cluster nope not found');
    await expect(client.scaleNodePool("prod", [{ name: "cpu", count: 1 }])).rejects.toThrow(
      'ScaleNodePool pool "cpu" of cluster "prod": NOT_FOUND: node pool not found',
    );
    expect(methods()).toEqual(["GetCluster", "ScaleNodePool"]);
  });

  it("retries a read through transient failures with backoff and fresh request ids", async () => {
    fake.state.failures.GetCluster = [Code.Unavailable, Code.Unavailable];
    expect((await client.getCluster("prod")).status).toBe("RUNNING");
    expect(methods()).toEqual(["GetCluster", "GetCluster", "GetCluster"]);
    expect(time.sleeps).toEqual([100, 200]);
    expect(new Set(fake.state.received.map((r) => r.requestId)).size).toBe(3);
  });

  it.each<[string, (c: CmasshClient) => Promise<unknown>, string, string]>([
    [
      "CreateCluster",
      (c) => c.createCluster({ name: "dev", k8sVersion: "1.13.4", controlPlaneNodes: { instanceType: "s", count: 1 } }),
      "CreateCluster",
      'CreateCluster cluster "dev": UNAVAILABLE: CreateCluster scripted failure',
    ],
    [
      "AddNodePool",
      (c) => c.addNodePool("prod", [{ name: "cpu", instanceType: "s", count: 1 }]),
      "AddNodePool",
      'AddNodePool pool "cpu" of cluster "prod": UNAVAILABLE: AddNodePool scripted failure',
    ],
  ])("does not retry %s, even on a transient error", async (_, call, method, message) => {
    fake.state.failures[method] = [Code.Unavailable];
    await expect(call(client)).rejects.toMatchObject({ code: "Unavailable", message });
    expect(methods()).toEqual([method]);
    expect(time.sleeps).toEqual([]);
  });

  it("gives up retrying at the caller's deadline", async () => {
    fake.state.failures.ScaleNodePool = Array(50).fill(Code.Unavailable);
    const deadline = new Deadline(1_000, fakeClock);
    const err = await client.scaleNodePool("prod", [{ name: "gpu", count: 3 }], { deadline }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "DeadlineExceeded", ownDeadline: true });
    expect((err as ClusterformError).cause).toMatchObject({ code: "Unavailable" });
    expect(time.sleeps).toEqual([100, 200, 400]);
    expect(methods()).toEqual(Array(4).fill("ScaleNodePool"));
  });

  it("cuts each call's timeout to what the deadline has left, 30 s by default", async () => {
    await client.getCluster("prod");
    await client.getCluster("prod", { deadline: new Deadline(5_000, fakeClock) });
    const [byDefault, byDeadline] = fake.state.received.map((r) => r.timeoutMs ?? 0);
    expect(byDefault).toBeGreaterThan(29_000);
    expect(byDefault).toBeLessThanOrEqual(30_000);
    expect(byDeadline).toBeGreaterThan(4_000);
    expect(byDeadline).toBeLessThanOrEqual(5_000);
  });

  it("times out a hung call as DeadlineExceeded", async () => {
    client.close();
    client = createCmasshClient({ endpoint, callTimeoutMs: 50 });
    fake.state.hang = true;
    const err = await client
      .createCluster({ name: "dev", k8sVersion: "1.13.4", controlPlaneNodes: { instanceType: "s", count: 1 } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "DeadlineExceeded", platformCode: "DEADLINE_EXCEEDED", ownDeadline: false });
    expect(methods()).toEqual(["CreateCluster"]);
  });

  it("counts NOT_FOUND on a delete retry as success: the first attempt landed", async () => {
    fake.state.failures.DeleteCluster = [Code.Unavailable];
    expect(await client.deleteCluster("prod")).toEqual({ status: "", notFoundOnRetry: true });
    expect(methods()).toEqual(["DeleteCluster", "DeleteCluster"]);
  });

  it("reports NOT_FOUND on a first delete attempt as NotFound", async () => {
    await expect(client.deleteCluster("nope")).rejects.toMatchObject({
      code: "NotFound",
      message: 'DeleteCluster cluster "nope": NOT_FOUND: cluster nope not found',
    });
    expect(await client.deleteCluster("prod")).toEqual({ status: "Deleted", notFoundOnRetry: false });
  });

  it("translates a refused connection as Unavailable", async () => {
    const closed = createCmasshClient({ endpoint: "http://127.0.0.1:1", sleep: fakeSleep, clock: fakeClock });
    try {
      await expect(closed.createCluster({ name: "x", k8sVersion: "1.0.0", controlPlaneNodes: { instanceType: "s", count: 1 } }))
        .rejects.toMatchObject({ code: "Unavailable" });
    } finally {
      closed.close();
    }
  });
});
