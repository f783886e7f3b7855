import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { ccMutations, ccNodes, poolOutputs } from "./cyclecloud-support";
import { openCycleCloudStack } from "./cyclecloud-support";

/** What the platform holds: `name:state` of every node of a nodearray. */
async function inventory(t: TestStack): Promise<string[]> {
  return (await ccNodes(t.plane)).map((n) => `${n.name}:${n.state}`).sort();
}

describe("cyclecloud:NodePool: `pulumi up --replace` ends with new nodes the state names, never adopting the old ones", () => {
  let t: TestStack;
  const pools = { derived: { count: 2 }, chosen: { count: 1, nodearray: "gpu", nameFormat: "acc-%d" } };

  beforeAll(async () => {
    t = await openCycleCloudStack();
    await t.configure({ pools });
    await t.stack.up();
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each([
    ["a pool with CycleCloud's default node names", "derived", ["execute-1:Ready", "execute-2:Ready"]],
    ["a pool with a chosen nameFormat", "chosen", ["acc-1:Ready"]],
  ])("replaces %s by removing its nodes, then asking again under the next request id", async (_, key, names) => {
    const before = await poolOutputs(t);
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf(key)] });
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual([`delete-replaced ${key}`, `replace ${key}`, `create-replacement ${key}`]);
    // The first request id belongs to the removed nodes' life: CycleCloud answers 409, nothing of it is left, the next id is used.
    expect(ccMutations(await t.plane.audit(since))).toEqual(["RemoveNodes demo", "CreateNodes demo ALREADY_EXISTS", "CreateNodes demo"]);
    const after = await poolOutputs(t);
    expect(after.nodeNames[key].map((n) => `${n}:Ready`)).toEqual(names);
    expect(after.nodeIds[key].some((id) => before.nodeIds[key].includes(id))).toBe(false);
    const all = [...after.nodeNames.derived, ...after.nodeNames.chosen].map((n) => `${n}:Ready`).sort();
    expect(await inventory(t)).toEqual(all);
  });
});
