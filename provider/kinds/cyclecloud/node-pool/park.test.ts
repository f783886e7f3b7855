import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { PartialStateError } from "../../../core/contract";
import { testHandler } from "../../testing";
import { cyclecloudNodePool } from "./kind";

// powerState against the local control plane: each change is the platform's own call, what the
// nodes keep, and what the state records when a call fails.

const handler = testHandler(cyclecloudNodePool);

type Props = Record<string, unknown>;

afterAll(removeDataDirs);

let t: TestPlane;
const config: ConfigReader = {
  get: (key) =>
    ({
      "clusterform:endpoint": t.plane.url,
      "clusterform:cyclecloudUsername": "admin",
      "clusterform:cyclecloudPassword": "admin",
      "clusterform:unreachableTimeout": "1s",
    })[key],
};

beforeEach(async () => {
  // Time scale 0: every node transition completes at once.
  t = await startTestPlane({ timeScale: 0 });
  await handler.configure(config);
});
afterEach(async () => {
  await t?.close();
});

const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "workers", clusterName: "demo", nodearray: "execute", count: 2 };

async function checked(patch: Props = {}, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await handler.check(olds, { ...raw, ...patch });
  expect(failures).toEqual([]);
  return inputs;
}

async function mutations(): Promise<string[]> {
  const entries = ((await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] }).entries;
  return entries.filter((e) => e.api === "cyclecloud" && !e.operation.startsWith("Get") && !e.operation.startsWith("List")).map((e) => `${e.operation}:${e.code}`);
}

/** `name:State PrivateIp` of every node record. */
async function records(): Promise<string[]> {
  const body = (await t.http("GET", "/clusters/demo/nodes", undefined, { Authorization: `Basic ${Buffer.from("admin:admin").toString("base64")}` })).body as {
    nodes: { Name: string; State: string; PrivateIp?: string }[];
  };
  return body.nodes.map((n) => `${n.Name}:${n.State} ${n.PrivateIp ?? "-"}`);
}

async function manage(action: string, names: string[]): Promise<void> {
  const auth = { Authorization: `Basic ${Buffer.from("admin:admin").toString("base64")}`, "Content-Type": "application/json" };
  expect((await t.http("POST", `/clusters/demo/nodes/${action}`, { names }, auth)).status).toBe(202);
}

async function update(created: { id: string; outs?: Props }, patch: Props): Promise<Props> {
  const olds = created.outs ?? {};
  return (await handler.update(created.id, olds, await checked(patch, olds))).outs ?? {};
}

async function failureOf(promise: Promise<unknown>): Promise<PartialStateError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialStateError);
  return err as PartialStateError;
}

describe("cyclecloud:NodePool powerState", () => {
  it("deallocates a pool in place, keeping its nodes and addresses, and starts the same nodes again", async () => {
    const created = await handler.create(await checked());
    const parked = await update(created, { powerState: "deallocated" });
    expect(parked).toMatchObject({ powerState: "deallocated", nodeIds: created.outs.nodeIds, readyCount: 0, count: 2 });
    expect(await records()).toEqual(["execute-1:Deallocated 10.1.0.4", "execute-2:Deallocated 10.1.0.5"]);
    expect(await handler.read(created.id, parked)).toEqual({ id: created.id, props: parked });
    const started = await update({ id: created.id, outs: parked }, { powerState: "running" });
    expect(started).toMatchObject({ powerState: "running", nodeIds: created.outs.nodeIds, readyCount: 2 });
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.4", "execute-2:Ready 10.1.0.5"]);
    expect(await mutations()).toEqual(["CreateNodes:OK", "DeallocateNodes:OK", "StartNodes:OK"]);
  });

  it("shuts Fixed nodes down (records kept, addresses released) and starts them on new VMs", async () => {
    const created = await handler.create(await checked({ nodeAttributes: { Fixed: true } }));
    const off = await update(created, { nodeAttributes: { Fixed: true }, powerState: "off" });
    expect(off).toMatchObject({ powerState: "off", nodeIds: created.outs.nodeIds, readyCount: 0 });
    expect(await records()).toEqual(["execute-1:Terminated -", "execute-2:Terminated -"]);
    expect((await handler.read(created.id, off)).props).toMatchObject({ powerState: "off", count: 2 });
    const started = await update({ id: created.id, outs: off }, { nodeAttributes: { Fixed: true } });
    expect(started).toMatchObject({ nodeIds: created.outs.nodeIds, readyCount: 2 });
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.6", "execute-2:Ready 10.1.0.7"]);
    expect(await mutations()).toEqual(["CreateNodes:OK", "ShutdownNodes:OK", "StartNodes:OK"]);
  });

  it("goes from deallocated to off with one nodes/shutdown", async () => {
    const created = await handler.create(await checked({ nodeAttributes: { Fixed: true }, powerState: "deallocated" }));
    expect(created.outs).toMatchObject({ powerState: "deallocated", readyCount: 0 });
    await update(created, { nodeAttributes: { Fixed: true }, powerState: "off" });
    expect(await records()).toEqual(["execute-1:Terminated -", "execute-2:Terminated -"]);
    expect(await mutations()).toEqual(["CreateNodes:OK", "DeallocateNodes:OK", "ShutdownNodes:OK"]);
  });

  it("refuses off for nodes that are not Fixed before any call, and records the pool running", async () => {
    const created = await handler.create(await checked());
    const err = await failureOf(handler.update(created.id, created.outs, await checked({ powerState: "off" }, created.outs)));
    expect(err.message).toBe(
      'ShutdownNodes of cluster "demo": NOT_SHUT_DOWN: powerState "off" node(s) execute-1, execute-2 are not Fixed, so CycleCloud would remove them once terminated: use powerState "deallocated", or create the pool with nodeAttributes { Fixed: true } (or a nodearray that sets it); nothing was changed',
    );
    expect(err.properties.powerState).toBeUndefined();
    expect(await mutations()).toEqual(["CreateNodes:OK"]);
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.4", "execute-2:Ready 10.1.0.5"]);
  });

  it("resizes a running pool first, then parks it, in one update", async () => {
    const created = await handler.create(await checked());
    const parked = await update(created, { count: 3, powerState: "deallocated" });
    expect(parked).toMatchObject({ powerState: "deallocated", nodeNames: ["execute-1", "execute-2", "execute-3"] });
    expect(await mutations()).toEqual(["CreateNodes:OK", "CreateNodes:OK", "DeallocateNodes:OK"]);
  });

  it("starts a parked pool first, then resizes it, in one update", async () => {
    const created = await handler.create(await checked({ powerState: "deallocated" }));
    const started = await update(created, { count: 1 });
    expect(started).toMatchObject({ nodeNames: ["execute-1"], readyCount: 1 });
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.4"]);
    expect(await mutations()).toEqual(["CreateNodes:OK", "DeallocateNodes:OK", "StartNodes:OK", "RemoveNodes:OK"]);
  });

  it("reads a pool deallocated outside Pulumi as deallocated, keeping its count, and one started outside as running", async () => {
    const created = await handler.create(await checked());
    await manage("deallocate", ["execute-1", "execute-2"]);
    expect((await handler.read(created.id, created.outs)).props).toMatchObject({ powerState: "deallocated", count: 2, readyCount: 0 });
    await manage("start", ["execute-1", "execute-2"]);
    const parked = { ...created.outs, powerState: "deallocated" };
    const read = (await handler.read(created.id, parked)).props;
    expect(read).toMatchObject({ count: 2, readyCount: 2 });
    expect(read.powerState).toBeUndefined();
  });

  it("reads a running pool with one node deallocated outside Pulumi as deallocated, so the next up starts it instead of replacing it", async () => {
    const created = await handler.create(await checked());
    await manage("deallocate", ["execute-2"]);
    const read = (await handler.read(created.id, created.outs)).props;
    expect(read).toMatchObject({ powerState: "deallocated", count: 2, readyCount: 1 });
    const started = await update({ id: created.id, outs: read }, {});
    expect(started).toMatchObject({ nodeIds: created.outs.nodeIds, readyCount: 2 });
    expect(await mutations()).toEqual(["CreateNodes:OK", "DeallocateNodes:OK", "StartNodes:OK"]);
  });

  it("records the pool running when the platform refuses the deallocate", async () => {
    const created = await handler.create(await checked());
    expect((await t.http("POST", "/_local/faults", { api: "cyclecloud", operation: "DeallocateNodes", action: "error", code: "FAILED_PRECONDITION" })).status).toBe(200);
    const err = await failureOf(handler.update(created.id, created.outs, await checked({ powerState: "deallocated" }, created.outs)));
    expect(err.message).toContain("DeallocateNodes of cluster");
    expect(err.properties.powerState).toBeUndefined();
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.4", "execute-2:Ready 10.1.0.5"]);
    const parked = await update({ id: created.id, outs: err.properties }, { powerState: "deallocated" });
    expect(parked).toMatchObject({ powerState: "deallocated" });
  });

  it("records the pool deallocated when the platform refuses the start, so the next up starts it again", async () => {
    const created = await handler.create(await checked({ powerState: "deallocated" }));
    expect((await t.http("POST", "/_local/faults", { api: "cyclecloud", operation: "StartNodes", action: "error", code: "FAILED_PRECONDITION" })).status).toBe(200);
    const err = await failureOf(handler.update(created.id, created.outs, await checked({}, created.outs)));
    expect(err.message).toContain("StartNodes of cluster");
    expect(err.properties.powerState).toBe("deallocated");
    expect(await records()).toEqual(["execute-1:Deallocated 10.1.0.4", "execute-2:Deallocated 10.1.0.5"]);
    const started = await update({ id: created.id, outs: err.properties }, {});
    expect(started).toMatchObject({ readyCount: 2 });
  });

  it("fails a start naming the node that failed, recording the pool running so the next up replaces that node", async () => {
    const created = await handler.create(await checked({ powerState: "deallocated" }));
    expect((await t.http("POST", "/_local/faults", { api: "cyclecloud", operation: "StartNodes", action: "fail-node", target: "execute-2" })).status).toBe(200);
    const err = await failureOf(handler.update(created.id, created.outs, await checked({}, created.outs)));
    expect(err.message).toContain('node "execute-2" is Failed');
    expect(err.properties.powerState).toBeUndefined();
    expect(await records()).toEqual(["execute-1:Ready 10.1.0.4", "execute-2:Failed -"]);
  });
});
