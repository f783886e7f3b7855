import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps } from "../harness/engine";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

describe("senlin: `pulumi up --replace` ends with a new cluster the state names, never adopting the old one", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each([
    ["a derived name", undefined],
    ["a chosen name", "web-chosen"],
  ])("replaces a cluster with %s and a policy: detach, delete, create, attach", async (_, name) => {
    await t.configure({ cluster: { profile: "web-profile", name, desiredCapacity: 1, policies: [{ policy: "deletion" }] }, deleteBeforeReplace: undefined });
    const before = (await t.stack.up()).outputs;
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("main")] });
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["delete-replaced main", "replace main", "create-replacement main"]);
    const after = result.outputs;
    expect(after.id).not.toBe(before.id);
    expect(after.name).toBe(before.name);
    expect(senlinMutations(await t.plane.audit(since))).toEqual([
      `DetachClusterPolicy ${before.id}`,
      `DeleteCluster ${before.id}`,
      `CreateCluster ${before.name}`,
      `AttachClusterPolicy ${after.id}`,
    ]);
    expect((await senlinClusters(t.plane)).map((c) => [c.id, c.name, c.status, c.bindings.length])).toEqual([[after.id, after.name, "ACTIVE", 1]]);
  });
});
