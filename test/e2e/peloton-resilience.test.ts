import { afterEach, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps, spawnCli } from "../harness/engine";
import { killTree } from "../harness/processes";
import { pelotonJobs, pelotonMutations, pelotonPools } from "./peloton-support";

const container = (image: string) => ({ name: "web", image, resources: { cpu: 0.5, memoryMb: 64 } });
const web = (image: string, patch: Record<string, unknown> = {}) => ({
  jobs: { web: { instanceCount: 6, defaultSpec: { containers: [container(image)] }, updatePolicy: { batchSize: 1 }, ...patch } },
});
const ops = (calls: string[]) => calls.map((c) => c.split(" ")[0]);

describe("Peloton: replacements, interrupted runs, faults and an unreachable platform", () => {
  let t: TestStack | undefined;
  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("replaces the job and the pool with `pulumi up --replace`, with derived and chosen names, ending with live objects the state names", async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.1 });
    await t.configure({ pool: { name: "chosen-pool" }, ...web("nginx:1", { instanceCount: 2 }) });
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
    await t.stack.destroy();
  });

  it("adopts the job an interrupted up created: killed while the job starts, the next up converges with one CreateJob", async () => {
    t = await openTestStack({ program: "peloton", timeScale: 1 });
    await t.configure(web("nginx:1"));
    const plane = t.plane;
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const creates = async () => pelotonMutations(await plane.audit()).filter((m) => m.startsWith("CreateJob"));
    await expect.poll(async () => (await creates()).length, { timeout: 90_000, interval: 100 }).toBe(1);
    killTree(cli.pid!);
    await exited;
    expect((await pelotonJobs(plane))[0].pods.some((p) => p.state !== "RUNNING")).toBe(true);

    await t.stack.stack.cancel();
    const result = await t.stack.up();
    expect(await creates()).toHaveLength(1);
    const jobs = await pelotonJobs(plane);
    expect(jobs.map((j) => `${j.id} ${j.state}`)).toEqual([`${(result.outputs.jobIds as Record<string, string>).web} RUNNING`]);
    await t.stack.destroy();
  });

  it("waits for the same workflow after being killed during a rolling update: one ReplaceJob in total, and it converges", async () => {
    t = await openTestStack({ program: "peloton", timeScale: 1 });
    await t.configure(web("nginx:1", { updatePolicy: { batchSize: 6 } }));
    await t.stack.up();
    const [before] = await pelotonJobs(t.plane);
    await t.configure(web("nginx:2"));
    const since = await t.plane.lastSeq();
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    // Kill once the new rollout (not the create's finished workflow) has updated an instance.
    const rolled = async () => {
      const wf = (await pelotonJobs(t!.plane))[0].workflow;
      return wf && wf.opaqueData !== before.workflow?.opaqueData ? wf.done.length : 0;
    };
    await expect.poll(rolled, { timeout: 90_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    killTree(cli.pid!);
    await exited;
    const [mid] = await pelotonJobs(t.plane);
    expect(mid.workflow?.state).toBe("ROLLING_FORWARD");

    await t.stack.stack.cancel();
    const result = await t.stack.up();
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${before.id}`]);
    expect((result.outputs.workflows as Record<string, { state: string }>).web.state).toBe("SUCCEEDED");
    const [after] = await pelotonJobs(t.plane);
    expect(after.workflow?.opaqueData).toBe(mid.workflow?.opaqueData);
    expect(after.pods.map((p) => p.state)).toEqual(Array(6).fill("RUNNING"));
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    await t.stack.destroy();
  });

  it("retries three transient ReplaceJob failures, fails clearly on a permanent one with state kept true, and survives a plane restart mid-rollout", async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.2 });
    await t.configure(web("nginx:1"));
    await t.stack.up();
    const [job] = await pelotonJobs(t.plane);

    await t.plane.addFault({ api: "peloton", operation: "ReplaceJob", action: "error", code: "UNAVAILABLE", count: 3 });
    await t.configure(web("nginx:2"));
    let since = await t.plane.lastSeq();
    await t.stack.up();
    const codes = (await t.plane.audit(since)).filter((e) => e.operation === "ReplaceJob").map((e) => e.code);
    expect(codes).toEqual(["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE", "OK"]);

    await t.plane.addFault({ api: "peloton", operation: "ReplaceJob", action: "error", code: "INTERNAL", message: "job store is read-only", count: 1 });
    await t.configure(web("nginx:3"));
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
    await expect.poll(async () => (await pelotonJobs(t!.plane))[0].workflow?.state, { timeout: 60_000, interval: 100 }).toBe("ROLLING_FORWARD");
    await t.plane.restart();
    const result = await up;
    expect((result.outputs.workflows as Record<string, { state: string }>).web.state).toBe("SUCCEEDED");
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${job.id}`]);
    await t.stack.destroy();
  });

  it("fails a job larger than its pool clearly and early: the excess pods stay PENDING and the error names the pool and the shortage", async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.1 });
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
      .poll(async () => (await pelotonJobs(t!.plane))[0].pods.map((p) => p.state).sort(), { timeout: 20_000, interval: 200 })
      .toEqual(["PENDING", "PENDING", "RUNNING", "RUNNING"]);
  });

  it("fails within clusterform:unreachableTimeout against an endpoint nothing listens on, naming the address", async () => {
    t = await openTestStack({ program: "peloton", config: { "clusterform:unreachableTimeout": "3s" } });
    await t.configure(web("nginx:1"));
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
    expect(Date.now() - started).toBeLessThan(120_000);
  });
});
