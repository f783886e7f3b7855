import { afterEach, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { spawnCli } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { killTree } from "../harness/processes";
import { ccAdmin, ccCalls, ccMutations, ccNodes, ccOperations, ccStates, openCycleCloudStack } from "./cyclecloud-support";

const creates = (entries: AuditEntry[]) => entries.filter((e) => e.operation === "CreateNodes" && e.code === "OK");

/** The pool's resource in the exported state. */
async function poolResource(t: TestStack): Promise<{ outputs?: Record<string, unknown>; initErrors?: string[] } | undefined> {
  const state = await t.stack.exportState();
  return (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("cyclecloud:NodePool"));
}

describe("cyclecloud:NodePool under faults: state stays true, nothing orphaned, nothing duplicated", () => {
  let t: TestStack | undefined;

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("retries transient failures: the next 3 calls answer UNAVAILABLE and up still succeeds", async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools: { p: { count: 2 } } });
    await t.plane.addFault({ api: "cyclecloud", count: 3, action: "error", code: "UNAVAILABLE" });
    const result = await t.stack.up();
    expect(result.outputs.readyCount).toEqual({ p: 2 });
    const audit = ccCalls(await t.plane.audit());
    expect(audit.slice(0, 4).map((e) => `${e.operation}:${e.code}`)).toEqual([
      "GetClusterStatus:UNAVAILABLE",
      "GetClusterStatus:UNAVAILABLE",
      "GetClusterStatus:UNAVAILABLE",
      "GetClusterStatus:OK",
    ]);
    expect(creates(audit)).toHaveLength(1);
  });

  it("fails a permanent error naming the resource, the call and CycleCloud's message, and records nothing", async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools: { p: { count: 2 } } });
    await t.plane.addFault({ api: "cyclecloud", operation: "CreateNodes", action: "error", code: "FAILED_PRECONDITION", message: "cluster is terminating" });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/cyclecloud:NodePool \(p\):\n\s+error: CreateNodes nodearray "execute" of cluster "demo": HTTP 409: cluster is terminating/);
    expect(await poolResource(t)).toBeUndefined();
    expect(await ccNodes(t.plane)).toEqual([]);
  });

  it("fails a quota shortfall with CycleCloud's message and the bucket's available count, recording the nodes that exist", async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools: { g: { nodearray: "gpu", count: 3 } } });
    const quota =
      'CreateNodes nodearray "gpu" of cluster "demo": QUOTA: CycleCloud added 2 of 3 node(s): only 2 of 3 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 0 are in use; bucket Standard_NC6 of nodearray "gpu" has 0 node(s) available now';
    await expect(t.stack.up()).rejects.toThrow(quota);
    const recorded = await poolResource(t);
    expect(recorded?.outputs?.nodeNames).toEqual(["gpu-1", "gpu-2"]);
    expect(recorded?.initErrors).toEqual([quota]);
    // The next up asks again for the one missing node and tells the same truth; it adds nothing twice.
    await expect(t.stack.up()).rejects.toThrow(/CycleCloud added 0 of 1 node\(s\): only 0 of 1 nodes were added: the quota of Standard_NC6 in nodearray "gpu" is 2 nodes and 2 are in use; bucket Standard_NC6 of nodearray "gpu" has 0 node\(s\) available now/);
    expect((await ccStates(t.plane)).sort()).toEqual(["gpu-1:Ready", "gpu-2:Ready"]);
    // Because they are recorded, destroy removes them.
    await t.stack.destroy();
    expect(await ccNodes(t.plane)).toEqual([]);
  });

  it("fails when a node fails to start, records the pool, and the next up replaces exactly that node", async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools: { p: { count: 3 } } });
    // `fail-node` is this platform's own fault action, beyond the harness's typed ones.
    await ccAdmin(t.plane, "/_local/faults", { api: "cyclecloud", action: "fail-node", target: "execute-2", message: "SkuNotAvailable: Standard_F2s_v2 is not available in westeurope" });
    await expect(t.stack.up()).rejects.toThrow(/node "execute-2" is Failed: SkuNotAvailable: Standard_F2s_v2 is not available in westeurope/);
    expect((await poolResource(t))?.outputs?.nodeNames).toEqual(["execute-1", "execute-2", "execute-3"]);
    const since = await t.plane.lastSeq();
    const result = await t.stack.up();
    expect(ccMutations(await t.plane.audit(since))).toEqual(["RemoveNodes demo", "CreateNodes demo"]);
    expect(result.outputs.readyCount).toEqual({ p: 3 });
    expect((await ccStates(t.plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready", "execute-3:Ready"]);
  });

  it("fails clearly on wrong credentials, with zero node calls and no password in the message", async () => {
    t = await openCycleCloudStack({ secrets: { "clusterform:cyclecloudPassword": "Wrong-pw-4711" } });
    await t.configure({ pools: { p: { count: 1 } } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toContain('GetClusterStatus cluster "demo": HTTP 401: authentication required: send HTTP Basic credentials');
    expect(failure).not.toContain("Wrong-pw-4711");
    expect(ccCalls(await t.plane.audit())).toEqual([]);
  });

  it("fails within clusterform:unreachableTimeout against an endpoint nothing listens on, naming the address", async () => {
    t = await openCycleCloudStack({ config: { "clusterform:unreachableTimeout": "3s" } });
    await t.configure({ pools: { p: { count: 1 } } });
    // A privileged port nothing here listens on and no server takes (the stopped plane's own port
    // can be taken at once by a server another test file starts, which then answers instead).
    const address = "http://127.0.0.1:2"; // not 9: fetch refuses the discard port
    await t.stack.setConfig("clusterform:endpoint", address);
    await t.plane.stop();
    const started = Date.now();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`UNREACHABLE: cannot reach ${address.replace(/\./g, "\\.")}: connect ECONNREFUSED`));
    expect(failure).toMatch(/giving up \(limit 3s, set by clusterform:unreachableTimeout\)/);
    expect(Date.now() - started).toBeLessThan(90_000);
  });

  it("completes an up while the local control plane restarts mid-create", async () => {
    t = await openCycleCloudStack({ timeScale: 1 });
    await t.configure({ pools: { p: { count: 2 } } });
    const plane = t.plane;
    const up = t.stack.up();
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    await plane.restart();
    const result = await up;
    expect(result.outputs.readyCount).toEqual({ p: 2 });
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await ccStates(plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready"]);
  });

  it("adopts an interrupted create's request: killed while nodes start, the next up gets a 409 and adopts exactly those nodes", async () => {
    // Nodes take 10 s to be Ready at this scale: the kill lands while they start.
    t = await openCycleCloudStack({ timeScale: 2 });
    await t.configure({ pools: { p: { count: 3 } } });
    const plane = t.plane;
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    // Kill the whole engine, CLI and providers, as a cancelled CI job would.
    killTree(cli.pid!);
    await exited;
    expect((await ccNodes(plane)).map((n) => n.state)).not.toContain("Ready");

    await t.stack.stack.cancel();
    const since = await plane.lastSeq();
    const result = await t.stack.up();
    expect(ccMutations(await plane.audit(since))).toEqual(["CreateNodes demo ALREADY_EXISTS"]);
    expect(result.outputs.nodeNames).toEqual({ p: ["execute-1", "execute-2", "execute-3"] });
    expect((await ccStates(plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready", "execute-3:Ready"]);
    const [first] = await ccOperations(plane);
    expect(result.outputs.lastOperationId).toEqual({ p: first.requestId });
  });
});
