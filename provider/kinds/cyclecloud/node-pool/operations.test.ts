import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import { createCycleCloudClient } from "../../../clients/cyclecloud/client";
import type { ConfigReader } from "../../../core/config";

import { requestIdBase, requestIdOf } from "./pool";
import { seedValues } from "../../fields";
import { nodePoolKind } from "./schema";
import { cyclecloudNodePool } from "./kind";
import { partialOf, testHandler } from "../../testing";

const nodePoolHandler = testHandler(cyclecloudNodePool);

type Props = Record<string, unknown>;

afterAll(removeDataDirs);

let t: TestPlane;
const settings: Record<string, string> = {};
const config: ConfigReader = { get: (key) => settings[key] };

beforeEach(async () => {
  // Time scale 0: every node transition completes at once, so nothing here waits.
  t = await startTestPlane({ timeScale: 0 });
  Object.assign(settings, {
    "clusterform:endpoint": t.plane.url,
    "clusterform:cyclecloudUsername": "admin",
    "clusterform:cyclecloudPassword": "admin",
    "clusterform:unreachableTimeout": "1s",
  });
  await nodePoolHandler.configure(config);
});
afterEach(async () => {
  await t?.close();
});

const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "workers", clusterName: "demo", nodearray: "execute", count: 2 };

async function checked(patch: Props = {}): Promise<Props> {
  const { inputs, failures } = await nodePoolHandler.check({}, { ...raw, ...patch });
  expect(failures).toEqual([]);
  return inputs;
}

async function mutations(): Promise<string[]> {
  const entries = ((await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] }).entries;
  return entries.filter((e) => e.api === "cyclecloud" && !e.operation.startsWith("Get") && !e.operation.startsWith("List")).map((e) => `${e.operation}:${e.code}`);
}

async function nodes(): Promise<string[]> {
  const body = (await t.http("GET", "/_local/cyclecloud/nodes")).body as { nodes: { name: string; state: string }[] };
  return body.nodes.map((n) => `${n.name}:${n.state}`);
}

describe("cyclecloud:NodePool against the local control plane", () => {
  it("creates with one nodes/create and records every node Ready", async () => {
    const { id, outs } = await nodePoolHandler.create(await checked());
    expect(id).toBe(`demo/execute/${requestIdBase("0123456789abcdef", seedValues(nodePoolKind, raw))}`);
    expect(outs).toMatchObject({ nodeNames: ["execute-1", "execute-2"], readyCount: 2, requestSeq: 1, coresPerNode: 2, count: 2 });
    expect(await mutations()).toEqual(["CreateNodes:OK"]);
    expect(await nodes()).toEqual(["execute-1:Ready", "execute-2:Ready"]);
    expect(await nodePoolHandler.read(id, outs)).toEqual({ id, props: outs });
  });

  it("adds the difference on count up and removes exactly the surplus, newest first, on count down", async () => {
    const created = await nodePoolHandler.create(await checked());
    const up = await nodePoolHandler.update(created.id, created.outs, await checked({ count: 4 }));
    expect(up.outs).toMatchObject({ nodeNames: ["execute-1", "execute-2", "execute-3", "execute-4"], readyCount: 4, requestSeq: 2 });
    const down = await nodePoolHandler.update(created.id, up.outs, await checked({ count: 1 }));
    expect(down.outs).toMatchObject({ nodeNames: ["execute-1"], readyCount: 1, requestSeq: 2 });
    expect(await mutations()).toEqual(["CreateNodes:OK", "CreateNodes:OK", "RemoveNodes:OK"]);
    const ops = (await t.http("GET", "/_local/cyclecloud/operations")).body as { operations: { action: string; nodes: (string | null)[] }[] };
    expect(ops.operations.map((o) => o.action)).toEqual(["create", "create", "remove"]);
    expect(await nodes()).toEqual(["execute-1:Ready"]);
  });

  it("sizes by cores: enough nodes of the bucket's vCPUs", async () => {
    const { outs } = await nodePoolHandler.create(await checked({ count: undefined, coreCount: 5 }));
    expect(outs).toMatchObject({ nodeNames: ["execute-1", "execute-2", "execute-3"], coresPerNode: 2 });
  });

  it("adopts the nodes of a request an interrupted run sent (409) and adds no more", async () => {
    // Another resource than the other tests' (its own owner): this file's one core keeps a
    // delete of an object a create adopted (core/holds.ts), and the plane's ids repeat from test to test.
    const inputs = await checked({ count: 3, owner: "fedcba9876543210" });
    const requestId = requestIdOf(requestIdBase("fedcba9876543210", seedValues(nodePoolKind, inputs)), 1);
    const cc = createCycleCloudClient({ endpoint: t.plane.url, username: "admin", password: "admin" });
    await cc.createNodes("demo", { requestId, sets: [{ count: 3, nodearray: "execute" }] });
    const { outs } = await nodePoolHandler.create(inputs);
    expect(outs).toMatchObject({ nodeNames: ["execute-1", "execute-2", "execute-3"], readyCount: 3, requestSeq: 1, lastOperationId: requestId });
    expect(await mutations()).toEqual(["CreateNodes:OK", "CreateNodes:ALREADY_EXISTS"]);
  });

  it("asks under the next request id when an earlier life of the pool used the first one", async () => {
    const first = await nodePoolHandler.create(await checked());
    await nodePoolHandler.delete(first.id, first.outs);
    const again = await nodePoolHandler.create(await checked());
    expect(again.outs).toMatchObject({ nodeNames: ["execute-1", "execute-2"], requestSeq: 2 });
    expect(await mutations()).toEqual(["CreateNodes:OK", "RemoveNodes:OK", "CreateNodes:ALREADY_EXISTS", "CreateNodes:OK"]);
  });

  it("refuses, changing nothing, a create-first replacement whose request finds the pool's own nodes (`up --replace`)", async () => {
    // Its own owner, as above: the core keeps what its creates adopted.
    const inputs = await checked({ owner: "abcdefabcdefabcd" });
    await nodePoolHandler.create(inputs);
    const createFirst = (await nodePoolHandler.check(inputs, { ...raw, owner: "abcdefabcdefabcd", deleteBeforeReplace: false })).inputs;
    await expect(nodePoolHandler.create(createFirst)).rejects.toThrow(
      /already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is the object this run replaces[\s\S]*Remove `deleteBeforeReplace: false`/,
    );
    expect(await mutations()).toEqual(["CreateNodes:OK", "CreateNodes:ALREADY_EXISTS"]);
    expect(await nodes()).toEqual(["execute-1:Ready", "execute-2:Ready"]);
  });

  it("fails a quota shortfall with CycleCloud's message and the bucket's availability, recording the nodes that exist", async () => {
    const err = await partialOf(nodePoolHandler.create(await checked({ nodearray: "gpu", count: 3 })));
    expect(err.message).toBe(
      'CreateNodes nodearray "gpu" of cluster "demo": QUOTA: CycleCloud added 2 of 3 node(s): only 2 of 3 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 0 are in use; bucket Standard_NC6 of nodearray "gpu" has 0 node(s) available now',
    );
    expect(err.properties).toMatchObject({ nodeNames: ["gpu-1", "gpu-2"], count: 3, requestSeq: 1 });
    expect(await nodes()).toEqual(["gpu-1:Ready", "gpu-2:Ready"]);
    // The engine's next run updates the recorded pool: it asks again for the one missing node only,
    // tells the same truth, and adds nothing twice.
    const again = await partialOf(nodePoolHandler.update(err.id, err.properties, await checked({ nodearray: "gpu", count: 3 })));
    expect(again.message).toBe(
      'CreateNodes nodearray "gpu" of cluster "demo": QUOTA: CycleCloud added 0 of 1 node(s): only 0 of 1 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 2 are in use; bucket Standard_NC6 of nodearray "gpu" has 0 node(s) available now',
    );
    expect(await nodes()).toEqual(["gpu-1:Ready", "gpu-2:Ready"]);
    // Recorded, the nodes are the pool's: delete removes them.
    await nodePoolHandler.delete(again.id, again.properties);
    expect(await nodes()).toEqual([]);
  });

  it("fails when a node fails to start, then replaces exactly that node on the next update", async () => {
    expect((await t.http("POST", "/_local/faults", { api: "cyclecloud", action: "fail-node", target: "execute-2" })).status).toBe(200);
    const err = await partialOf(nodePoolHandler.create(await checked()));
    expect(err.message).toContain('node "execute-2" is Failed: Allocation failed: no capacity for the requested VM size (simulated)');
    expect(err.properties).toMatchObject({ nodeNames: ["execute-1", "execute-2"] });
    const fixed = await nodePoolHandler.update(err.id, err.properties, await checked());
    // CycleCloud gives the replacement the first free name, the failed node's.
    expect(fixed.outs).toMatchObject({ nodeNames: ["execute-1", "execute-2"], readyCount: 2, requestSeq: 2 });
    expect(await mutations()).toEqual(["CreateNodes:OK", "RemoveNodes:OK", "CreateNodes:OK"]);
    expect(await nodes()).toEqual(["execute-1:Ready", "execute-2:Ready"]);
  });

  it("shows a preempted node on read as a lower readyCount and count; update replaces exactly it", async () => {
    const created = await nodePoolHandler.create(await checked({ count: 3 }));
    expect((await t.http("POST", "/_local/cyclecloud/nodes/preempt", { cluster: "demo", name: "execute-2" })).status).toBe(200);
    const read = await nodePoolHandler.read(created.id, created.outs);
    expect(read.props).toMatchObject({ readyCount: 2, count: 2, nodeNames: ["execute-1", "execute-2", "execute-3"] });
    const restored = await nodePoolHandler.update(created.id, read.props, await checked({ count: 3 }));
    expect(restored.outs).toMatchObject({ readyCount: 3, nodeNames: ["execute-1", "execute-3", "execute-2"] });
    expect(await mutations()).toEqual(["CreateNodes:OK", "RemoveNodes:OK", "CreateNodes:OK"]);
  });

  it("reads a pool whose nodes were all removed outside Pulumi as gone", async () => {
    const created = await nodePoolHandler.create(await checked());
    const cc = createCycleCloudClient({ endpoint: t.plane.url, username: "admin", password: "admin" });
    await cc.manageNodes("demo", "remove", { filter: 'Template === "execute"' });
    expect(await nodePoolHandler.read(created.id, created.outs)).toEqual({ id: "", props: {} });
  });

  it("deletes every node and waits until they are gone", async () => {
    const created = await nodePoolHandler.create(await checked());
    await nodePoolHandler.delete(created.id, created.outs);
    expect(await nodes()).toEqual([]);
    await nodePoolHandler.delete(created.id, created.outs);
    expect(await mutations()).toEqual(["CreateNodes:OK", "RemoveNodes:OK"]);
  });

  it("names the unknown nodearray and the ones that exist, changing nothing", async () => {
    await expect(nodePoolHandler.create(await checked({ nodearray: "cpu" }))).rejects.toThrow(
      'GetClusterStatus cluster "demo": UNKNOWN_NODEARRAY: cluster "demo" has no nodearray "cpu"; its nodearrays: execute, gpu',
    );
    expect(await mutations()).toEqual([]);
  });

  it("fails clearly on wrong credentials without a node call and without showing the password", async () => {
    settings["clusterform:cyclecloudPassword"] = "wrong-pass-123";
    const err = await nodePoolHandler.create(await checked()).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toBe('GetClusterStatus cluster "demo": HTTP 401: authentication required: send HTTP Basic credentials');
    expect(err?.message).not.toContain("wrong-pass-123");
    expect(((await t.http("GET", "/_local/audit")).body as { entries: unknown[] }).entries).toEqual([]);
  });

  it("says which settings give the credentials when none are set", async () => {
    delete settings["clusterform:cyclecloudUsername"];
    const saved = process.env.CLUSTERFORM_CYCLECLOUD_USERNAME;
    delete process.env.CLUSTERFORM_CYCLECLOUD_USERNAME;
    try {
      await expect(nodePoolHandler.create(await checked())).rejects.toThrow(
        "reading the CycleCloud credentials: INVALID_CONFIG: no CycleCloud username: set stack config clusterform:cyclecloudUsername or the environment variable CLUSTERFORM_CYCLECLOUD_USERNAME",
      );
    } finally {
      if (saved !== undefined) process.env.CLUSTERFORM_CYCLECLOUD_USERNAME = saved;
    }
  });
});
