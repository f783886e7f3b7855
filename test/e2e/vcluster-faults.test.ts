import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";

interface View {
  name: string;
  phase: string;
  replicas: { desired: number };
}

// What else vcluster under faults needs is proved elsewhere: transient failures and an interrupted
// create by the reliability matrix on every engine (test/README.md), a create ending in ERROR in
// provider/kinds/vcluster/platform.test.ts, an unreachable endpoint in provider/kinds/unreachable.test.ts,
// the plane restarted mid-create by the restart row of test/e2e/matrix-concurrency.test.ts.
describe("vcluster: a permanent error part-way through an update", () => {
  let t: TestStack;
  const vclusters = async () => (await t.plane.admin<{ vclusters: View[] }>("/_local/vcluster/vclusters")).vclusters;

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("fails a permanent error clearly, naming the resource, the call and the platform's message, and keeps the state true", async () => {
    await t.configure({ vc: { namespace: "team-a", name: "dev", replicas: 1 } });
    await t.stack.up();
    // A refusal that sending again cannot change (RESOURCE_EXHAUSTED, "not carried out", is sent again
    // by the call policy, core/call-policy.ts, so it is no permanent error).
    await t.plane.addFault({ api: "vcluster", operation: "ScaleVCluster", action: "error", code: "FAILED_PRECONDITION", message: "quota of 4 control plane replicas reached" });
    await t.configure({ vc: { namespace: "team-a", name: "dev", replicas: 5, labels: { env: "dev" } } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/vcluster:VCluster main/);
    expect(failure).toContain('ScaleVCluster vcluster "team-a/dev": FAILED_PRECONDITION: quota of 4 control plane replicas reached');
    // The label update before the scale landed and is recorded; the scale did not and is not.
    const state = await t.stack.exportState();
    const main = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("vcluster:VCluster"));
    expect([main?.outputs?.replicas, main?.outputs?.labels]).toEqual([1, { env: "dev" }]);
    expect((await vclusters()).map((v) => v.replicas.desired)).toEqual([1]);
    // The next up retries only the scale.
    const since = await t.plane.lastSeq();
    await t.stack.up();
    expect((await t.plane.audit(since)).filter((e) => !["GetVCluster", "WatchVCluster"].includes(e.operation)).map((e) => e.operation)).toEqual(["ScaleVCluster"]);
    expect((await vclusters()).map((v) => v.replicas.desired)).toEqual([5]);
  });
});
