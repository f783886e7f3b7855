import { afterAll, afterEach, describe, expect, it } from "vitest";
import { JobState } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { createFakeClock } from "../clock";
import { makeDataDir, removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { jobSpec, outcomeOf, type PelotonTestClients, pelotonClients, poolSpec } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let c: PelotonTestClients;
afterEach(async () => {
  await t?.close();
});

async function start(opts: Parameters<typeof startTestPlane>[0] = {}): Promise<string> {
  t = await startTestPlane(opts);
  c = pelotonClients(t.plane.url);
  const { respoolId } = await c.respools.createResourcePool({ spec: poolSpec("compute", 16, 8192) });
  return respoolId!.value;
}

async function statusOf(jobId: string) {
  return (await c.jobs.getJob({ jobId: { value: jobId } })).jobInfo!.status!;
}

describe("job lifecycle (fake clock, time scale 1)", () => {
  it.each([
    [0, JobState.INITIALIZED, "POD_STATE_INITIALIZED"],
    [200, JobState.PENDING, "POD_STATE_PENDING"],
    [500, JobState.PENDING, "POD_STATE_READY"],
    [600, JobState.PENDING, "POD_STATE_PLACING"],
    [800, JobState.PENDING, "POD_STATE_PLACED"],
    [900, JobState.PENDING, "POD_STATE_LAUNCHING"],
    [1000, JobState.PENDING, "POD_STATE_LAUNCHED"],
    [1200, JobState.PENDING, "POD_STATE_STARTING"],
    [1999, JobState.PENDING, "POD_STATE_STARTING"],
    [2000, JobState.RUNNING, "POD_STATE_RUNNING"],
  ])("at %i ms after CreateJob the job is %s with every pod in %s", async (ms, jobState, podState) => {
    const pool = await start();
    const { jobId } = await c.jobs.createJob({ spec: jobSpec("web", pool, 3) });
    t.clock.advance(ms);
    const status = await statusOf(jobId!.value);
    expect(status.state).toBe(jobState);
    expect(status.podStats).toEqual({ [podState]: 3 });
  });

  it("runs every pod at once at time scale 0", async () => {
    const pool = await start({ timeScale: 0 });
    const { jobId } = await c.jobs.createJob({ spec: jobSpec("web", pool, 2) });
    expect(await statusOf(jobId!.value)).toMatchObject({ state: JobState.RUNNING, podStats: { POD_STATE_RUNNING: 2 } });
  });

  it("answers version 1-1-1 for a new job and keeps a client-chosen UUID", async () => {
    const pool = await start();
    const id = "6f9619ff-8b86-4011-b42d-00c04fc964ff";
    const created = await c.jobs.createJob({ jobId: { value: id }, spec: jobSpec("web", pool, 1) });
    expect(created.jobId?.value).toBe(id);
    expect(created.version?.value).toBe("1-1-1");
    expect((await statusOf(id)).podConfigurationVersionStats).toEqual({ "1": 1 });
  });

  it.each([
    ["a job id that is not a UUID", { jobId: { value: "web-1" } }, "INVALID_ARGUMENT", "jobID is not valid UUID"],
    ["no resource pool", { spec: { ...jobSpec("web", "", 1), respoolId: undefined } }, "INVALID_ARGUMENT", "resource pool ID is null"],
    ["the root pool", { spec: jobSpec("web", "root", 1) }, "INVALID_ARGUMENT", "`root` resource pool"],
    ["a pool that does not exist", { spec: jobSpec("web", "0b3e1f2a-0000-4000-8000-000000000000", 1) }, "NOT_FOUND", "not found"],
  ])("rejects %s", async (_what, override, code, message) => {
    const pool = await start();
    const outcome = await outcomeOf(c.jobs.createJob({ spec: jobSpec("web", pool, 1), ...override }));
    expect(outcome).toMatchObject({ code: code === "INVALID_ARGUMENT" ? "InvalidArgument" : "NotFound" });
    expect(outcome === "OK" ? "" : outcome.message).toContain(message);
  });

  it("answers ALREADY_EXISTS for a job id in use", async () => {
    const pool = await start();
    const id = "6f9619ff-8b86-4011-b42d-00c04fc964ff";
    await c.jobs.createJob({ jobId: { value: id }, spec: jobSpec("web", pool, 1) });
    expect(await outcomeOf(c.jobs.createJob({ jobId: { value: id }, spec: jobSpec("web", pool, 1) }))).toEqual({
      code: "AlreadyExists",
      message: `job ${id} already exists`,
    });
  });

  it("stops a job (KILLING for 500 ms, then KILLED), then deletes it", async () => {
    const pool = await start();
    const { jobId, version } = await c.jobs.createJob({ spec: jobSpec("web", pool, 2) });
    t.clock.advance(2000);
    const stopped = await c.jobs.stopJob({ jobId, version });
    expect(stopped.version?.value).toBe("1-2-1");
    expect((await statusOf(jobId!.value)).state).toBe(JobState.KILLING);
    t.clock.advance(500);
    const status = await statusOf(jobId!.value);
    expect(status).toMatchObject({ state: JobState.KILLED, desiredState: JobState.KILLED, podStats: { POD_STATE_KILLED: 2 } });
    await c.jobs.deleteJob({ jobId, version: stopped.version });
    expect(await outcomeOf(c.jobs.getJob({ jobId }))).toEqual({ code: "NotFound", message: `job:${jobId!.value} not found` });
  });

  it("refuses to delete a running job unless forced", async () => {
    const pool = await start();
    const { jobId, version } = await c.jobs.createJob({ spec: jobSpec("web", pool, 1) });
    expect(await outcomeOf(c.jobs.deleteJob({ jobId, version }))).toMatchObject({ code: "Aborted" });
    expect(await outcomeOf(c.jobs.deleteJob({ jobId, version, force: true }))).toBe("OK");
    expect((await c.respools.queryResourcePools({})).respools.find((p) => p.spec?.name === "compute")?.usages).toEqual([
      expect.objectContaining({ kind: "cpu", allocation: 0 }),
      expect.objectContaining({ kind: "memory", allocation: 0 }),
    ]);
  });

  it("starts a stopped job again with new pods", async () => {
    const pool = await start();
    const { jobId, version } = await c.jobs.createJob({ spec: jobSpec("web", pool, 1) });
    t.clock.advance(2000);
    const stopped = await c.jobs.stopJob({ jobId, version });
    t.clock.advance(500);
    const started = await c.jobs.startJob({ jobId, version: stopped.version });
    expect(started.version?.value).toBe("1-3-1");
    t.clock.advance(2000);
    const pods = [];
    for await (const reply of c.jobs.listPods({ jobId })) pods.push(...reply.pods);
    expect(pods.map((p) => [p.podName?.value, p.status?.podId?.value, p.status?.prevPodId?.value])).toEqual([
      [`${jobId!.value}-0`, `${jobId!.value}-0-2`, `${jobId!.value}-0-1`],
    ]);
    expect((await statusOf(jobId!.value)).state).toBe(JobState.RUNNING);
  });

  it.each([
    ["a stale version", "1-0-1", "Aborted", "unexpected entity version"],
    ["a malformed version", "v1", "InvalidArgument", "entityVersion has wrong format"],
  ])("answers StopJob with %s by %s", async (_what, version, code, message) => {
    const pool = await start();
    const { jobId } = await c.jobs.createJob({ spec: jobSpec("web", pool, 1) });
    const outcome = await outcomeOf(c.jobs.stopJob({ jobId, version: { value: version } }));
    expect(outcome).toMatchObject({ code });
    expect(outcome === "OK" ? "" : outcome.message).toContain(message);
  });

  it("continues a rolling job where the clock is after a restart of the control plane", async () => {
    const clock = createFakeClock();
    const dataDir = makeDataDir();
    const pool = await start({ clock, dataDir });
    const { jobId } = await c.jobs.createJob({ spec: jobSpec("web", pool, 2) });
    clock.advance(1000);
    expect((await statusOf(jobId!.value)).podStats).toEqual({ POD_STATE_LAUNCHED: 2 });
    await t.close();
    t = await startTestPlane({ clock, dataDir });
    c = pelotonClients(t.plane.url);
    clock.advance(1000);
    expect((await statusOf(jobId!.value)).podStats).toEqual({ POD_STATE_RUNNING: 2 });
  });

  it("shows jobs, pods and workflows under /_local/peloton/jobs, and refuses a timeline without a job", async () => {
    const pool = await start();
    const { jobId } = await c.jobs.createJob({ spec: jobSpec("web", pool, 1) });
    t.clock.advance(2000);
    const view = (await t.http("GET", "/_local/peloton/jobs")).body as { jobs: unknown[] };
    expect(view.jobs).toEqual([
      {
        id: jobId!.value,
        name: "web",
        respoolId: pool,
        version: "1-1-1",
        state: "RUNNING",
        desiredState: "RUNNING",
        pods: [{ instanceId: 0, state: "RUNNING", configVersion: 1, podId: `${jobId!.value}-0-1`, failureCount: 0 }],
        workflow: { type: "UPDATE", state: "SUCCEEDED", opaqueData: "", todo: [], current: [], done: [0], failed: [] },
      },
    ]);
    const bad = await t.http("GET", "/_local/peloton/timeline?job=nope");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'query parameter "job": no job "nope"; see /_local/peloton/jobs' });
  });

  it("keeps pods that do not fit the pool's limit PENDING until another job frees room", async () => {
    const pool = await start();
    const first = await c.jobs.createJob({ spec: jobSpec("big", pool, 3, 5) });
    const second = await c.jobs.createJob({ spec: jobSpec("late", pool, 1, 5) });
    t.clock.advance(2000);
    expect((await statusOf(first.jobId!.value)).podStats).toEqual({ POD_STATE_RUNNING: 3 });
    expect((await statusOf(second.jobId!.value)).podStats).toEqual({ POD_STATE_PENDING: 1 });
    await c.jobs.stopJob({ jobId: first.jobId, version: first.version });
    t.clock.advance(500 + 1500);
    expect((await statusOf(second.jobId!.value)).podStats).toEqual({ POD_STATE_RUNNING: 1 });
  });
});
