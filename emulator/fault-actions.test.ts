import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../proto/gen/cmassh/api_pb";
import type { AuditEntry } from "./audit";
import { startTestPlane, type TestPlane, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

async function addFault(fault: Record<string, unknown>): Promise<string> {
  const response = await t.http("POST", "/_local/faults", fault);
  expect(response.status).toBe(200);
  return (response.body as { id: string }).id;
}

async function lastAudit(): Promise<AuditEntry> {
  return ((await t.http("GET", "/_local/audit")).body as { entries: AuditEntry[] }).entries.at(-1)!;
}

describe("fault injection", () => {
  it('"error" fails matching calls with the code, before any state change, and audits the code', async () => {
    t = await startTestPlane();
    await addFault({ api: "cmassh", operation: "CreateCluster", action: "error", code: "UNAVAILABLE", message: "try later" });
    const error = await t.cmassh.createCluster({ name: "c1" }).catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.Unavailable);
    expect((error as ConnectError).rawMessage).toBe("try later");
    expect((await t.cmassh.getClusterList({})).clusters).toEqual([]);
    const entries = ((await t.http("GET", "/_local/audit")).body as { entries: AuditEntry[] }).entries;
    expect(entries[0]).toMatchObject({ operation: "CreateCluster", target: "c1", code: "UNAVAILABLE" });
    // count defaults to 1: the retry succeeds.
    expect((await t.cmassh.createCluster({ name: "c1" })).ok).toBe(true);
  });

  it('"error" defaults to UNAVAILABLE and maps to HTTP through the REST gateway', async () => {
    t = await startTestPlane();
    await addFault({ operation: "GetClusterList", action: "error" });
    const response = await t.http("GET", "/api/v1/cluster/list");
    expect(response).toMatchObject({ status: 503, body: { code: 14 } });
    expect(await lastAudit()).toMatchObject({ operation: "GetClusterList", code: "UNAVAILABLE" });
  });

  it("matches only calls whose given fields are equal, and affects `count` calls", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "c1", workerNodePools: [{ name: "p1" }, { name: "p2" }] });
    await addFault({ target: "c1/p2", action: "error", code: "DEADLINE_EXCEEDED", count: 2 });
    const scale = (pool: string) =>
      t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: pool, count: 3 }] }).then(
        () => "OK",
        (e: unknown) => ConnectError.from(e).code,
      );
    expect(await scale("p1")).toBe("OK");
    expect(await scale("p2")).toBe(Code.DeadlineExceeded);
    expect(await scale("p2")).toBe(Code.DeadlineExceeded);
    expect(await scale("p2")).toBe("OK");
  });

  it('"delay" answers matching calls only after delayMs', async () => {
    t = await startTestPlane();
    await addFault({ operation: "GetClusterList", action: "delay", delayMs: 150 });
    const started = performance.now();
    await t.cmassh.getClusterList({});
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    const again = performance.now();
    await t.cmassh.getClusterList({});
    expect(performance.now() - again).toBeLessThan(145);
  });

  it('"fail-operation" ends the started operation in ERROR with the message', async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.30.10" });
    t.clock.advance(3000);
    await addFault({ operation: "UpgradeCluster", action: "fail-operation", message: "etcd quorum lost" });
    expect((await t.cmassh.upgradeCluster({ name: "c1", version: "1.31.6" })).ok).toBe(true);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster!.status).toBe(ClusterStatus.RECONCILING);
    t.clock.advance(2000);
    const failed = (await t.cmassh.getCluster({ name: "c1" })).cluster!;
    expect(failed).toMatchObject({ status: ClusterStatus.ERROR, statusMessage: "etcd quorum lost" });
    const rest = await t.http("GET", "/api/v1/cluster?name=c1");
    expect(rest.body).toMatchObject({ cluster: { status: "ERROR", status_message: "etcd quorum lost" } });
    expect((await t.http("GET", "/_local/cmassh/clusters")).body).toMatchObject({
      clusters: [{ status: "ERROR", statusMessage: "etcd quorum lost", k8sVersion: "1.30.10" }],
    });
  });

  it("repairs ERROR when a later operation succeeds", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", workerNodePools: [{ name: "p1" }] });
    t.clock.advance(3000);
    await addFault({ operation: "ScaleNodePool", action: "fail-operation" });
    await t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "p1", count: 2 }] });
    t.clock.advance(1000);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster).toMatchObject({
      status: ClusterStatus.ERROR,
      statusMessage: "simulated failure",
    });
    await t.cmassh.scaleNodePool({ clusterName: "c1", nodePools: [{ name: "p1", count: 2 }] });
    t.clock.advance(1000);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster).toMatchObject({ status: ClusterStatus.RUNNING, statusMessage: "" });
  });

  it("a failed create stays in ERROR without a kubeconfig", async () => {
    t = await startTestPlane();
    await addFault({ operation: "CreateCluster", action: "fail-operation", message: "no capacity" });
    await t.cmassh.createCluster({ name: "c1" });
    t.clock.advance(3000);
    expect((await t.cmassh.getCluster({ name: "c1" })).cluster).toMatchObject({
      status: ClusterStatus.ERROR,
      statusMessage: "no capacity",
      kubeconfig: "",
    });
  });

  it("does not consume a fail-operation fault on calls that start no operation", async () => {
    t = await startTestPlane();
    await addFault({ action: "fail-operation" });
    await t.cmassh.getClusterList({});
    await t.cmassh.getCluster({ name: "ghost" }).catch(() => undefined);
    expect(((await t.http("GET", "/_local/faults")).body as { faults: unknown[] }).faults).toHaveLength(1);
  });

  it('"reset" drops a gRPC call\'s HTTP/2 connection before handling it: its streams are cut, nothing changes', async () => {
    t = await startTestPlane();
    await addFault({ api: "cmassh", operation: "CreateCluster", action: "reset" });
    const error = await t.cmassh.createCluster({ name: "c1" }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    // What a client sees when the server's side of the connection goes away, as in a restart.
    expect([error?.code, error?.rawMessage]).toEqual([Code.Canceled, "http/2 stream closed with error code CANCEL (0x8)"]);
    expect((await t.cmassh.getClusterList({})).clusters).toEqual([]);
    expect((await t.http("GET", "/_local/audit")).body).toMatchObject({ entries: [{ operation: "CreateCluster", code: "UNAVAILABLE" }, {}] });
    // The same client reconnects for the next call.
    expect((await t.cmassh.createCluster({ name: "c1" })).ok).toBe(true);
  });

  it('"reset" at stage "response" makes the change and loses the answer', async () => {
    t = await startTestPlane();
    await addFault({ operation: "CreateCluster", action: "reset", stage: "response" });
    const error = await t.cmassh.createCluster({ name: "c1" }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    // What a client sees when the server's side of the connection goes away, as in a restart.
    expect([error?.code, error?.rawMessage]).toEqual([Code.Canceled, "http/2 stream closed with error code CANCEL (0x8)"]);
    expect((await t.cmassh.getClusterList({})).clusters.map((c) => c.name)).toEqual(["c1"]);
  });

  it('"reset" drops a REST call\'s HTTP/1.1 socket without a status line', async () => {
    t = await startTestPlane();
    await addFault({ operation: "GetClusterList", action: "reset" });
    const failure = await t.http("GET", "/api/v1/cluster/list").then(
      (r) => `answered ${r.status}`,
      (e: Error) => (e.cause as NodeJS.ErrnoException | undefined)?.code ?? e.message,
    );
    expect(failure).toMatch(/^(ECONNRESET|UND_ERR_SOCKET)$/);
    expect(await lastAudit()).toMatchObject({ operation: "GetClusterList", code: "UNAVAILABLE" });
    expect((await t.http("GET", "/api/v1/cluster/list")).status).toBe(200);
  });

  it("lists and clears faults", async () => {
    t = await startTestPlane();
    const id = await addFault({ operation: "GetCluster", action: "delay", delayMs: 10, count: 3 });
    const listed = (await t.http("GET", "/_local/faults")).body as { faults: unknown[]; seed: number };
    expect(listed.faults).toEqual([{ id, operation: "GetCluster", action: "delay", delayMs: 10, count: 3, fired: 0 }]);
    expect(Number.isInteger(listed.seed)).toBe(true);
    expect((await t.http("DELETE", "/_local/faults")).status).toBe(200);
    expect(((await t.http("GET", "/_local/faults")).body as { faults: unknown[] }).faults).toEqual([]);
  });

  it("removes one fault by id and refuses an unknown id", async () => {
    t = await startTestPlane();
    const first = await addFault({ operation: "GetCluster", action: "delay", delayMs: 10 });
    const second = await addFault({ operation: "GetClusterList", action: "error" });
    expect((await t.http("DELETE", `/_local/faults?id=${first}`)).status).toBe(200);
    expect(((await t.http("GET", "/_local/faults")).body as { faults: { id: string }[] }).faults.map((f) => f.id)).toEqual([second]);
    expect(await t.http("DELETE", "/_local/faults?id=fault-99")).toMatchObject({ status: 400, body: { error: 'no fault with id "fault-99"' } });
  });

  it("replays the same decisions of a probabilistic fault after the same seed is set again", async () => {
    t = await startTestPlane();
    expect(await t.http("POST", "/_local/faults/seed", { seed: 11 })).toMatchObject({ status: 200, body: { seed: 11 } });
    await addFault({ operation: "GetClusterList", action: "error", probability: 0.5 });
    const codes = async () => {
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await t.http("GET", "/api/v1/cluster/list")).status);
      return out;
    };
    const first = await codes();
    expect(new Set(first)).toEqual(new Set([200, 503]));
    await t.http("POST", "/_local/faults/seed", { seed: 11 });
    expect(await codes()).toEqual(first);
    expect(await t.http("POST", "/_local/faults/seed", { seed: -1 })).toMatchObject({ status: 400 });
  });

  it("adds a latency fault's delay to every call it matches", async () => {
    t = await startTestPlane();
    await addFault({ operation: "GetClusterList", action: "latency", delayMs: 150, probability: 1 });
    const started = performance.now();
    expect((await t.http("GET", "/api/v1/cluster/list")).status).toBe(200);
    expect((await t.http("GET", "/api/v1/cluster/list")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    const listed = (await t.http("GET", "/_local/faults")).body as { faults: { fired: number }[] };
    expect(listed.faults[0].fired).toBe(2);
  });
});
