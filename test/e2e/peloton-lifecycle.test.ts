import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { pelotonJobs, pelotonMutations, pelotonPools } from "./peloton-support";

describe("Peloton pool and stateless job: the whole lifecycle through the engine", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.1 });
    await t.configure({ jobs: { web: { instanceCount: 3 } } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates the pool and the job in one up and waits until every instance runs", async () => {
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create compute", "create web"]);
    const jobId = (result.outputs.jobIds as Record<string, string>).web;
    expect(jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((result.outputs.jobStates as Record<string, string>).web).toBe("RUNNING");
    const [job] = await pelotonJobs(t.plane);
    expect(job.id).toBe(jobId);
    expect(job.pods.map((p) => p.state)).toEqual(["RUNNING", "RUNNING", "RUNNING"]);
    const pools = await pelotonPools(t.plane);
    expect(pools.map((p) => p.id)).toEqual([result.outputs.poolId]);
    expect(pelotonMutations(await t.plane.audit())).toEqual([`CreateResourcePool ${result.outputs.poolId}`, `CreateJob ${jobId}`]);
  });

  it("destroys everything: stops and deletes the job, then the pool, and leaves nothing", async () => {
    const since = await t.plane.lastSeq();
    const result = await t.stack.destroy();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["delete web", "delete compute"]);
    const out = pelotonMutations(await t.plane.audit(since)).map((m) => m.split(" ")[0]);
    expect(out).toEqual(["StopJob", "DeleteJob", "DeleteResourcePool"]);
    expect(await pelotonJobs(t.plane)).toEqual([]);
    expect(await pelotonPools(t.plane)).toEqual([]);
  });
});
