import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeDataDir, removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type CycleCloudCaller, cycleCloud } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let cc: CycleCloudCaller;
afterEach(async () => {
  await t?.close();
});

async function start(opts: Parameters<typeof startTestPlane>[0] = {}): Promise<void> {
  t = await startTestPlane(opts);
  cc = cycleCloud(t);
}

async function restart(opts: Parameters<typeof startTestPlane>[0] = {}): Promise<void> {
  await t.close();
  await start({ dataDir: t.dataDir, clock: t.clock, ...opts });
}

describe("restart with the same data directory", () => {
  it("continues a node's start where it was, by the clock", async () => {
    await start();
    await cc.create("execute", 1);
    t.clock.advance(1000);
    await t.close();
    t.clock.advance(2000);
    await start({ dataDir: t.dataDir, clock: t.clock });
    expect(await cc.states()).toEqual({ "execute-1": "Preparing" });
    t.clock.advance(2000);
    expect(await cc.states()).toEqual({ "execute-1": "Ready" });
  });

  it("applies a termination that ended while the server was down, billing up to its end", async () => {
    await start();
    await cc.create("execute", 1);
    t.clock.advance(3_600_000);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
    await t.close();
    t.clock.advance(86_400_000);
    await start({ dataDir: t.dataDir, clock: t.clock });
    expect(await cc.states()).toEqual({});
    const usage = (await cc.get("/clusters/demo/usage?timeframe=custom&from=2023-11-14&to=2023-11-16&granularity=total")).body;
    expect(usage).toMatchObject({ usage: [{ total: { hours: 2 } }] });
  });

  it("keeps operations, request ids, node ids and a pending preemption", async () => {
    await start();
    await t.http("POST", "/_local/faults", { action: "preempt-node", delayMs: 60_000 });
    const created = await cc.post("/clusters/demo/nodes/create", { requestId: "keep-me", sets: [{ nodearray: "gpu", count: 1 }] });
    const operationId = (created.body as { operationId: string }).operationId;
    const before = (await cc.get(`/clusters/demo/nodes?operation=${operationId}`)).body;
    await restart();
    expect((await cc.get("/clusters/demo/nodes?request_id=keep-me")).body).toEqual(before);
    expect((await cc.post("/clusters/demo/nodes/create", { requestId: "keep-me", sets: [{ nodearray: "gpu", count: 1 }] })).status).toBe(409);
    t.clock.advance(5000 + 59_999);
    expect(await cc.states()).toEqual({ "gpu-1": "Ready" });
    t.clock.advance(1);
    expect(await cc.states()).toEqual({ "gpu-1": "Failed" });
  });

  it("keeps clusters defined through the admin API, and does not bring back a deleted demo", async () => {
    await start();
    await t.http("POST", "/_local/cyclecloud/clusters", { name: "hpc", nodearrays: [{ name: "mpi", machineType: "Standard_HB120rs_v3", quota: 4 }] });
    expect((await t.http("DELETE", "/_local/cyclecloud/clusters?name=demo")).status).toBe(200);
    await restart();
    const clusters = (await t.http("GET", "/_local/cyclecloud/clusters")).body as { clusters: { name: string }[] };
    expect(clusters.clusters.map((c) => c.name)).toEqual(["hpc"]);
    expect((await cc.get("/clusters/demo/status")).status).toBe(404);
  });
});

describe("cluster definitions file (--cyclecloud-clusters)", () => {
  function writeFile(content: unknown): string {
    const file = path.join(makeDataDir(), "clusters.json");
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  }

  it("defines the file's clusters instead of demo", async () => {
    const file = writeFile({ clusters: [{ name: "lab", nodearrays: [{ name: "cpu", buckets: [{ machineType: "Standard_D2s_v3", quota: 3 }, { machineType: "Standard_D4s_v3", quota: 1 }] }] }] });
    await start({ platformOptions: { cyclecloud: { clustersFile: file } } });
    const status = (await cc.get("/clusters/lab/status")).body as { maxCount: number; nodearrays: { buckets: { definition: unknown; quotaCount: number }[] }[] };
    expect(status.maxCount).toBe(4);
    expect(status.nodearrays[0].buckets.map((b) => [b.definition, b.quotaCount])).toEqual([
      [{ machineType: "Standard_D2s_v3" }, 3],
      [{ machineType: "Standard_D4s_v3" }, 1],
    ]);
    expect((await cc.get("/clusters/demo/status")).status).toBe(404);
  });

  it.each([
    ["not JSON", "{", "not JSON"],
    ["without clusters", { nodes: [] }, 'invalid definitions file: expected {"clusters": [ ... ]}'],
    ["with an unknown machine type", { clusters: [{ name: "x", nodearrays: [{ name: "a", machineType: "Standard_Z9", quota: 1 }] }] }, 'field "clusters.0.nodearrays.0.machineType": got "Standard_Z9", allowed: Standard_F2s_v2'],
    ["with a cluster twice", { clusters: [{ name: "x", nodearrays: [{ name: "a", machineType: "Standard_F2s_v2", quota: 1 }] }, { name: "x", nodearrays: [{ name: "a", machineType: "Standard_F2s_v2", quota: 1 }] }] }, 'cluster "x" is defined twice'],
  ])("refuses to start with a file %s", async (_label, content, message) => {
    const file = writeFile(content);
    const failure = await startTestPlane({ platformOptions: { cyclecloud: { clustersFile: file } } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RangeError);
    expect((failure as Error).message).toContain(`invalid cyclecloud clusters file "${file}"`);
    expect((failure as Error).message).toContain(message);
  });
});
