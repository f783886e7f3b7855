import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { pelotonJobs, pelotonMutations, pelotonPools } from "./peloton-support";

const container = (image: string) => ({ name: "web", image, resources: { cpu: 0.5, memoryMb: 64 } });
const web = (image: string, patch: Record<string, unknown> = {}) => ({
  jobs: { web: { instanceCount: 6, defaultSpec: { containers: [container(image)] }, updatePolicy: { batchSize: 1 }, ...patch } },
});
const ops = (calls: string[]) => calls.map((c) => c.split(" ")[0]);

// One stack, its tests in order, each starting from what the last left. What else Peloton needs
// under interruptions is proved elsewhere: a job killed while it starts and killed mid rolling update
// by the reliability matrix on every engine (test/README.md), an unreachable endpoint in
// provider/kinds/unreachable.test.ts.
describe("Peloton: replacements, faults on a rolling update, a plane restarted mid-rollout, a job its pool cannot hold", () => {
  let t: TestStack;
  const chosenPool = { pool: { name: "chosen-pool" } };

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.2 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("replaces the job and the pool with `pulumi up --replace`, with derived and chosen names, ending with live objects the state names", async () => {
    await t.configure({ ...chosenPool, ...web("nginx:1", { instanceCount: 2 }) });
    const first = await t.stack.up();
    const jobId = (first.outputs.jobIds as Record<string, string>).web;

    let since = await t.plane.lastSeq();
    const job = await t.stack.up({ replace: [await t.stack.urnOf("web")] });
    expect(changingSteps(job).some((s) => s.name === "web" && s.op === "replace")).toBe(true);
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`StopJob ${jobId}`, `DeleteJob ${jobId}`, `CreateJob ${jobId}`]);
    expect((await pelotonJobs(t.plane)).map((j) => `${j.id} ${j.state}`)).toEqual([`${jobId} RUNNING`]);

    since = await t.plane.lastSeq();
    const pool = await t.stack.up({ replace: [await t.stack.urnOf("compute")] });
    const poolId = String(pool.outputs.poolId);
    expect(ops(pelotonMutations(await t.plane.audit(since)))).toEqual(["StopJob", "DeleteJob", "DeleteResourcePool", "CreateResourcePool", "CreateJob"]);
    expect((await pelotonPools(t.plane)).map((p) => `${p.id} ${p.path} ${p.jobs}`)).toEqual([`${poolId} /chosen-pool 1`]);
    expect((await pelotonJobs(t.plane)).map((j) => `${j.id} ${j.respoolId} ${j.state}`)).toEqual([`${jobId} ${poolId} RUNNING`]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("retries three transient ReplaceJob failures, fails clearly on a permanent one with state kept true, and survives a plane restart mid-rollout", async () => {
    // The first test left the job at nginx:1 with 2 instances: this change also takes it to 6.
    const [job] = await pelotonJobs(t.plane);
    await t.plane.addFault({ api: "peloton", operation: "ReplaceJob", action: "error", code: "UNAVAILABLE", count: 3 });
    await t.configure({ ...chosenPool, ...web("nginx:2") });
    let since = await t.plane.lastSeq();
    await t.stack.up();
    const codes = (await t.plane.audit(since)).filter((e) => e.operation === "ReplaceJob").map((e) => e.code);
    expect(codes).toEqual(["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE", "OK"]);

    await t.plane.addFault({ api: "peloton", operation: "ReplaceJob", action: "error", code: "INTERNAL", message: "job store is read-only", count: 1 });
    await t.configure({ ...chosenPool, ...web("nginx:3") });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/peloton:StatelessJob \(web\)/);
    expect(failure).toContain(`ReplaceJob job "${job.id}": INTERNAL: job store is read-only`);
    const preview = await t.stack.preview();
    expect(changingSteps(preview).map((s) => `${s.op} ${s.name}`)).toEqual(["update web"]);

    since = await t.plane.lastSeq();
    const up = t.stack.up();
    await expect.poll(async () => (await pelotonJobs(t.plane))[0].workflow?.state, { timeout: 60_000, interval: 100 }).toBe("ROLLING_FORWARD");
    await t.plane.restart();
    const result = await up;
    expect((result.outputs.workflows as Record<string, { state: string }>).web.state).toBe("SUCCEEDED");
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${job.id}`]);
  });

  it("fails a job larger than its pool clearly and early: the excess pods stay PENDING and the error names the pool and the shortage", async () => {
    // A pool of another name: the pool and its job are replaced, and the new job's create fails.
    const small = { name: "small", resources: [{ kind: "cpu", reservation: 1, limit: 2 }] };
    await t.configure({ pool: small, ...web("nginx:1", { instanceCount: 4, updatePolicy: { batchSize: 4 }, defaultSpec: { containers: [{ ...container("nginx:1"), resources: { cpu: 1, memoryMb: 64 } }] } }) });
    const started = Date.now();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/pod\(s\) stay PENDING: pool "\/small" \(id [0-9a-f-]{36}\) can never hold the job's 4 instance\(s\) \(cpu: limit 2, 4 pod\(s\) need 4\); raise the pool's limits or lower instanceCount/);
    const state = await t.stack.exportState();
    expect((state.deployment.resources ?? []).filter((r: { type: string }) => r.type.endsWith("peloton:StatelessJob"))).toHaveLength(1);
    // Well within the job's 30-minute create timeout.
    expect(Date.now() - started).toBeLessThan(120_000);
    await expect
      .poll(async () => (await pelotonJobs(t.plane))[0].pods.map((p) => p.state).sort(), { timeout: 20_000, interval: 200 })
      .toEqual(["PENDING", "PENDING", "RUNNING", "RUNNING"]);
  });
});
