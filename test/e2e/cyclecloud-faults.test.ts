import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { ccNodes, openCycleCloudStack } from "./cyclecloud-support";

// What else CycleCloud under faults needs is proved elsewhere: transient failures and an
// interrupted create by the reliability matrix on every engine (test/README.md); a quota shortfall,
// a node failing to start, wrong credentials and the adoption of an interrupted request in
// provider/kinds/cyclecloud/node-pool/operations.test.ts; an unreachable endpoint in
// provider/kinds/unreachable.test.ts; the plane restarted mid-create by the restart row of
// test/e2e/matrix-concurrency.test.ts.
describe("cyclecloud:NodePool: a permanent error on create", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openCycleCloudStack();
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("fails a permanent error naming the resource, the call and CycleCloud's message, and records nothing", async () => {
    await t.configure({ pools: { p: { count: 2 } } });
    await t.plane.addFault({ api: "cyclecloud", operation: "CreateNodes", action: "error", code: "FAILED_PRECONDITION", message: "cluster is terminating" });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/cyclecloud:NodePool \(p\):\n\s+error: CreateNodes nodearray "execute" of cluster "demo": HTTP 409: cluster is terminating/);
    const state = await t.stack.exportState();
    expect((state.deployment.resources ?? []).filter((r: { type: string }) => r.type.endsWith("cyclecloud:NodePool"))).toEqual([]);
    expect(await ccNodes(t.plane)).toEqual([]);
  });
});
