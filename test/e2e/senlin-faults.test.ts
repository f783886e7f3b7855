import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

// What else Senlin under faults needs is proved elsewhere: transient failures, a failed resize and
// an interrupted create (its policy bound once after the adoption) by the reliability matrix on
// every engine (test/README.md); a create or resize action that FAILED in
// provider/kinds/senlin/cluster/failed-actions.test.ts; an unreachable endpoint in
// provider/kinds/unreachable.test.ts; the plane restarted mid-create by the restart row of
// test/e2e/matrix-concurrency.test.ts.
describe("senlin: a same-named cluster that is not the stack's", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("never touches a same-named cluster that is not its own: creates its own beside it and deletes only its own", async () => {
    const profile = await t.rest.call("GET", "/v1/profiles/web-profile");
    const foreign = await t.rest.call("POST", "/v1/clusters", { cluster: { name: "shared", profile_id: profile.body.profile.id, desired_capacity: 1 } });
    expect(await t.rest.waitAction(foreign.location)).toBe("SUCCEEDED");
    const foreignId = String(foreign.body.cluster.id);

    await t.configure({ cluster: { profile: "web-profile", name: "shared", desiredCapacity: 2 } });
    const result = await t.stack.up();
    expect(result.outputs.id).not.toBe(foreignId);
    await t.configure({ cluster: { profile: "web-profile", name: "shared", desiredCapacity: 3 } });
    await t.stack.up();
    await t.stack.destroy();

    const mutations = senlinMutations(await t.plane.audit());
    expect(mutations.filter((m) => m.endsWith(foreignId))).toEqual([]);
    const left = await senlinClusters(t.plane);
    expect(left.map((c) => [c.id, c.name, c.desired_capacity, c.status])).toEqual([[foreignId, "shared", 1, "ACTIVE"]]);
  });
});
