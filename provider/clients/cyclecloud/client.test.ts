import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { fakeTime } from "../../core/testing";
import { type CycleCloudClient, type CycleCloudClientOptions, createCycleCloudClient } from "./client";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

function client(extra: Partial<CycleCloudClientOptions> = {}): CycleCloudClient {
  const time = fakeTime();
  return createCycleCloudClient({ endpoint: t.plane.url, username: "admin", password: "admin", sleep: time.sleep, clock: time.now, ...extra });
}

async function start(): Promise<CycleCloudClient> {
  t = await startTestPlane();
  return client();
}

const failure = async (promise: Promise<unknown>): Promise<ClusterformError> => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClusterformError);
  return err as ClusterformError;
};

const names = (nodes: { Name: string }[]) => nodes.map((n) => n.Name);

describe("cyclecloud client against the emulator", () => {
  it("creates nodes with a request id and follows them through the operation to Ready", async () => {
    const cc = await start();
    const created = await cc.createNodes("demo", { requestId: "r-1", sets: [{ count: 2, nodearray: "execute", nameFormat: "w-%d" }] });
    expect(created.value.sets).toEqual([{ added: 2 }]);
    expect(created.location).toBe(`${t.plane.url}/operations/${created.value.operationId}`);
    const byOperation = await cc.listNodes("demo", { operation: created.value.operationId });
    expect(names(byOperation.nodes)).toEqual(["w-1", "w-2"]);
    expect(byOperation.nodes.map((n) => n.State)).toEqual(["Acquiring", "Acquiring"]);
    expect(byOperation.operation?.action).toBe("create");
    t.clock.advance(5000);
    const byRequest = await cc.listNodes("demo", { requestId: "r-1" });
    expect(byRequest.nodes.map((n) => [n.Name, n.State, n.RequestId])).toEqual([
      ["w-1", "Ready", "r-1"],
      ["w-2", "Ready", "r-1"],
    ]);
    expect((await cc.getOperation(created.value.operationId)).action).toBe("create");
    expect(await cc.findOperationsByRequestId("r-1")).toHaveLength(1);
    expect(await cc.findOperationsByRequestId("r-unused")).toEqual([]);
  });

  it("answers a repeated request id with Conflict (HTTP 409) and adds nothing", async () => {
    const cc = await start();
    await cc.createNodes("demo", { requestId: "r-1", sets: [{ count: 1, nodearray: "execute" }] });
    const err = await failure(cc.createNodes("demo", { requestId: "r-1", sets: [{ count: 1, nodearray: "execute" }] }));
    expect([err.code, err.platformCode]).toEqual(["Conflict", "HTTP 409"]);
    expect(err.message).toBe('CreateNodes nodearray "execute" of cluster "demo": HTTP 409: requestId "r-1" was already used; the request was ignored');
    expect(names((await cc.listNodes("demo")).nodes)).toEqual(["execute-1"]);
  });

  it("reports how many nodes a quota let it add and the bucket's availability", async () => {
    const cc = await start();
    const created = await cc.createNodes("demo", { sets: [{ count: 3, nodearray: "gpu" }] });
    expect(created.value.sets).toEqual([{ added: 2, message: 'only 2 of 3 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 0 are in use' }]);
    const status = await cc.getClusterStatus("demo");
    const gpu = status.nodearrays.find((n) => n.name === "gpu")!;
    expect([gpu.buckets[0].definition.machineType, gpu.buckets[0].availableCount, gpu.buckets[0].virtualMachine.vcpuCount]).toEqual(["Standard_NC6", 0, 6]);
    expect(status.nodearrays.map((n) => n.name)).toEqual(["execute", "gpu"]);
  });

  it("removes nodes by name and they disappear once terminated", async () => {
    const cc = await start();
    await cc.createNodes("demo", { sets: [{ count: 3, nodearray: "execute" }] });
    t.clock.advance(5000);
    const removed = await cc.manageNodes("demo", "remove", { names: ["execute-3", "execute-1"] });
    expect(removed.value.nodes.map((n) => [n.name, n.status])).toEqual([
      ["execute-1", "OK"],
      ["execute-3", "OK"],
    ]);
    expect((await cc.listNodes("demo")).nodes.map((n) => [n.Name, n.State])).toEqual([
      ["execute-1", "Terminating"],
      ["execute-2", "Ready"],
      ["execute-3", "Terminating"],
    ]);
    t.clock.advance(2000);
    expect(names((await cc.listNodes("demo")).nodes)).toEqual(["execute-2"]);
  });

  it("scales a nodearray up to a total and never down", async () => {
    const cc = await start();
    expect((await cc.scaleNodearray("demo", "execute", { totalNodeCount: 2 })).value.sets).toEqual([{ added: 2 }]);
    expect((await cc.scaleNodearray("demo", "execute", { totalNodeCount: 1 })).value.sets).toEqual([{ added: 0 }]);
  });

  it("fails with Unauthenticated on a wrong password and never shows the password", async () => {
    t = await startTestPlane();
    const cc = client({ password: "s3cret-wrong" });
    const err = await failure(cc.listNodes("demo"));
    expect([err.code, err.platformCode]).toEqual(["Unauthenticated", "HTTP 401"]);
    expect(err.message).toBe('GetNodes of cluster "demo": HTTP 401: authentication required: send HTTP Basic credentials');
    expect(JSON.stringify({ m: err.message, s: err.stack })).not.toContain("s3cret-wrong");
  });

  it("answers NotFound for an unknown cluster and names it", async () => {
    const cc = await start();
    const err = await failure(cc.listNodes("nope"));
    expect(err.message).toBe('GetNodes of cluster "nope": HTTP 404: cluster "nope" not found');
    expect(err.code).toBe("NotFound");
  });

  it("names the unknown nodearray and the ones that exist (409 invalid input)", async () => {
    const cc = await start();
    const err = await failure(cc.createNodes("demo", { sets: [{ count: 1, nodearray: "cpu" }] }));
    expect(err.platformMessage).toBe('invalid field "sets.0.nodearray": got "cpu", allowed in cluster "demo": execute, gpu');
  });

  it("gives up on an unreachable server after the unreachable limit, naming the address", async () => {
    t = await startTestPlane();
    const url = t.plane.url;
    await t.close();
    const time = fakeTime();
    const cc = createCycleCloudClient({ endpoint: url, username: "admin", password: "admin", sleep: time.sleep, clock: time.now, unreachableTimeoutMs: 2000 });
    const err = await failure(cc.getClusterStatus("demo", false, { deadline: new Deadline(600_000, time.now) }));
    expect([err.code, err.platformCode, err.unreachable]).toEqual(["Unavailable", "UNREACHABLE", true]);
    expect(err.platformMessage.startsWith(`cannot reach ${url}: `)).toBe(true);
    expect(time.nowMs).toBeLessThan(10_000);
  });

  it("retries a create with a request id after a transient failure, and a create without one never", async () => {
    const cc = await start();
    const fault = { api: "cyclecloud", operation: "CreateNodes", action: "error", code: "UNAVAILABLE" };
    expect((await t.http("POST", "/_local/faults", fault)).status).toBe(200);
    const created = await cc.createNodes("demo", { requestId: "r-9", sets: [{ count: 1, nodearray: "execute" }] });
    expect(created.value.sets).toEqual([{ added: 1 }]);
    expect((await t.http("POST", "/_local/faults", fault)).status).toBe(200);
    const err = await failure(cc.createNodes("demo", { sets: [{ count: 1, nodearray: "execute" }] }));
    expect(err.code).toBe("Unavailable");
    expect(names((await cc.listNodes("demo")).nodes)).toEqual(["execute-1"]);
  });
});
