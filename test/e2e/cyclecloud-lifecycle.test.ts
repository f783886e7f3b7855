import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { CC_PASSWORD, ccAdmin, ccMutations, ccNodes, ccOperations, ccStates, openCycleCloudStack, poolOutputs } from "./cyclecloud-support";

describe("cyclecloud:NodePool: the whole lifecycle through the engine", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools: { work: { count: 2 }, gpu: { nodearray: "gpu", count: 1 } } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates each pool with one nodes/create and waits until every node is Ready", async () => {
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create gpu", "create work"]);
    expect(ccMutations(await t.plane.audit())).toEqual(["CreateNodes demo", "CreateNodes demo"]);
    expect((await ccStates(t.plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready", "gpu-1:Ready"]);
    expect(result.outputs.readyCount).toEqual({ work: 2, gpu: 1 });
    expect(result.outputs.nodeNames).toEqual({ work: ["execute-1", "execute-2"], gpu: ["gpu-1"] });
    expect(result.stdout).toMatch(/cyclecloud:NodePool work creating \([^)]*\) waiting for the 2 node\(s\) of CreateNodes operation "[^"]+" in cluster "demo" to be Ready/);
    const requests = (await ccOperations(t.plane)).map((o) => o.requestId);
    expect(requests).toEqual([expect.stringMatching(/^clusterform-[0-9a-f]{16}-[0-9a-f]{8}-1$/), expect.stringMatching(/^clusterform-[0-9a-f]{16}-[0-9a-f]{8}-1$/)]);
  });

  it("keeps the password out of the stored state", async () => {
    const state = await t.stack.storedState();
    expect(state).toContain("execute-1");
    expect(state).not.toContain(CC_PASSWORD);
    expect(state).not.toContain(Buffer.from(`admin:${CC_PASSWORD}`).toString("base64"));
  });

  it("scales up with one nodes/create of the difference", async () => {
    await t.configure({ pools: { work: { count: 5 }, gpu: { nodearray: "gpu", count: 1 } } });
    const since = await t.plane.lastSeq();
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["update work"]);
    expect(ccMutations(await t.plane.audit(since))).toEqual(["CreateNodes demo"]);
    const created = (await ccOperations(t.plane)).at(-1)!;
    expect([created.action, created.nodeIds.length]).toEqual(["create", 3]);
    expect((await poolOutputs(t)).nodeNames.work).toEqual(["execute-1", "execute-2", "execute-3", "execute-4", "execute-5"]);
  });

  it("scales down with one nodes/remove of exactly the surplus, the newest nodes, and waits until they are gone", async () => {
    const before = await poolOutputs(t);
    await t.configure({ pools: { work: { count: 2 }, gpu: { nodearray: "gpu", count: 1 } } });
    const since = await t.plane.lastSeq();
    await t.stack.up();
    expect(ccMutations(await t.plane.audit(since))).toEqual(["RemoveNodes demo"]);
    const removed = (await ccOperations(t.plane)).at(-1)!;
    expect(removed.action).toBe("remove");
    expect([...removed.nodeIds].sort()).toEqual(before.nodeIds.work.slice(2).sort());
    expect((await ccStates(t.plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready", "gpu-1:Ready"]);
    expect((await poolOutputs(t)).nodeNames.work).toEqual(["execute-1", "execute-2"]);
  });

  it("shows a node preempted out of band on refresh as a lower readyCount, and up replaces exactly it", async () => {
    await ccAdmin(t.plane, "/_local/cyclecloud/nodes/preempt", { cluster: "demo", name: "execute-2" });
    await t.stack.refresh();
    // Refresh updates the resource's state (stack outputs change only with the next up).
    const recorded = ((await t.stack.exportState()).deployment.resources ?? []).find((r: { urn: string }) => r.urn.endsWith("::work"));
    expect([recorded?.outputs?.readyCount, recorded?.outputs?.count, recorded?.outputs?.nodeNames]).toEqual([1, 1, ["execute-1", "execute-2"]]);
    const preview = await t.stack.preview();
    expect(changingSteps(preview).map((s) => `${s.op} ${s.name}`)).toEqual(["update work"]);
    const since = await t.plane.lastSeq();
    await t.stack.up();
    expect(ccMutations(await t.plane.audit(since))).toEqual(["RemoveNodes demo", "CreateNodes demo"]);
    expect((await poolOutputs(t)).readyCount).toEqual({ work: 2, gpu: 1 });
    expect((await ccStates(t.plane)).sort()).toEqual(["execute-1:Ready", "execute-2:Ready", "gpu-1:Ready"]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("destroys every pool and leaves no node in the local control plane", async () => {
    const since = await t.plane.lastSeq();
    const result = await t.stack.destroy();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["delete gpu", "delete work"]);
    expect(ccMutations(await t.plane.audit(since))).toEqual(["RemoveNodes demo", "RemoveNodes demo"]);
    expect(await ccNodes(t.plane)).toEqual([]);
  });
});
