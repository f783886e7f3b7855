import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WorkflowState, WorkflowType } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { createFakeClock } from "../clock";
import { makeDataDir, removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import type { TimelineEntry } from "./admin-view";
import { jobSpec, outcomeOf, type PelotonTestClients, pelotonClients, poolSpec } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let c: PelotonTestClients;
let pool: string;
afterEach(async () => {
  await t?.close();
});

/** Starts a plane and a running job of `count` instances; answers its id and version. */
async function runningJob(count: number, sla: { maximumUnavailableInstances?: number } = {}, opts: Parameters<typeof startTestPlane>[0] = {}) {
  t = await startTestPlane(opts);
  c = pelotonClients(t.plane.url);
  pool = (await c.respools.createResourcePool({ spec: poolSpec("compute", 64, 65536) })).respoolId!.value;
  const created = await c.jobs.createJob({ spec: { ...jobSpec("web", pool, count), sla } });
  t.clock.advance(2000);
  return { jobId: created.jobId!, version: created.version! };
}

async function timeline(jobId: string): Promise<TimelineEntry[]> {
  return ((await t.http("GET", `/_local/peloton/timeline?job=${jobId}`)).body as { entries: TimelineEntry[] }).entries;
}

/** Most instances down at once: from an old pod's kill to its replacement's RUNNING. */
function maxDown(entries: readonly TimelineEntry[]): number {
  const edges: Array<[number, number]> = [];
  for (const old of entries.filter((e) => e.outcome === "killed")) {
    const next = entries.find((e) => e.instanceId === old.instanceId && e.createdMs >= (old.endMs ?? 0) && e.podId !== old.podId);
    edges.push([old.endMs! - 500, 1], [next?.runningMs ?? Number.POSITIVE_INFINITY, -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let down = 0;
  let most = 0;
  for (const [, delta] of edges) {
    down += delta;
    most = Math.max(most, down);
  }
  return most;
}

async function workflowOf(jobId: { value: string }) {
  return (await c.jobs.getJob({ jobId })).workflowInfo!;
}

describe("ReplaceJob", () => {
  it.each([
    [2, 0, 2],
    [2, 1, 1],
    [0, 0, 4],
    [3, 2, 2],
  ])("with batch_size %i and maximum_unavailable_instances %i never has more than %i down", async (batchSize, maxUnavailable, most) => {
    const { jobId, version } = await runningJob(4, { maximumUnavailableInstances: maxUnavailable });
    const spec = { ...jobSpec("web", pool, 4, 1, "nginx:1.26"), sla: { maximumUnavailableInstances: maxUnavailable } };
    const replaced = await c.jobs.replaceJob({ jobId, version, spec, updateSpec: { batchSize } });
    expect(replaced.version?.value).toBe("2-1-2");
    t.clock.advance(60_000);
    const entries = await timeline(jobId.value);
    expect(maxDown(entries)).toBe(most);
    expect(entries.filter((e) => e.outcome === "live").map((e) => [e.instanceId, e.configVersion])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    const wf = await workflowOf(jobId);
    expect(wf.status).toMatchObject({ type: WorkflowType.UPDATE, state: WorkflowState.SUCCEEDED, numInstancesCompleted: 4 });
    expect(wf.instancesUpdated).toEqual([expect.objectContaining({ from: 0, to: 4 })]);
  });

  it("adds instances without restarting the unchanged ones", async () => {
    const { jobId, version } = await runningJob(2);
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 3) });
    t.clock.advance(2000);
    const entries = await timeline(jobId.value);
    expect(entries.map((e) => [e.instanceId, e.podId.slice(-4), e.configVersion, e.outcome])).toEqual([
      [0, "-0-1", 1, "handover"],
      [0, "-0-1", 2, "live"],
      [1, "-1-1", 1, "handover"],
      [1, "-1-1", 2, "live"],
      [2, "-2-1", 2, "live"],
    ]);
    expect((await workflowOf(jobId)).instancesAdded).toEqual([expect.objectContaining({ from: 2, to: 3 })]);
  });

  it("removes instances when the count shrinks: their pods are killed and no longer listed", async () => {
    const { jobId, version } = await runningJob(3);
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 1) });
    t.clock.advance(500);
    const pods = [];
    for await (const reply of c.jobs.listPods({ jobId })) pods.push(...reply.pods);
    expect(pods.map((p) => p.podName?.value)).toEqual([`${jobId.value}-0`]);
    expect((await timeline(jobId.value)).filter((e) => e.outcome === "killed").map((e) => e.instanceId)).toEqual([1, 2]);
    expect((await workflowOf(jobId)).status).toMatchObject({ state: WorkflowState.SUCCEEDED, numInstancesCompleted: 2 });
  });

  it("answers ABORTED for a stale version", async () => {
    const { jobId, version } = await runningJob(1);
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 2) });
    expect(await outcomeOf(c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 3) }))).toMatchObject({ code: "Aborted" });
  });

  it("describes what a ReplaceJob would add, remove, update and leave", async () => {
    const { jobId, version } = await runningJob(4);
    const spec = { ...jobSpec("web", pool, 3), instanceSpec: { 1: jobSpec("web", pool, 1, 2).defaultSpec } };
    const diff = await c.jobs.getReplaceJobDiff({ jobId, version, spec });
    const ranges = (rs: { from: number; to: number }[]) => rs.map((r) => [r.from, r.to]);
    expect([diff.instancesAdded, diff.instancesRemoved, diff.instancesUpdated, diff.instancesUnchanged].map(ranges)).toEqual([
      [],
      [[3, 4]],
      [[1, 2]],
      [
        [0, 1],
        [2, 3],
      ],
    ]);
  });
});

describe("restarts of the control plane", () => {
  it("continue a rolling update batch by batch exactly as without the restart", async () => {
    const clock = createFakeClock();
    const dataDir = makeDataDir();
    const { jobId, version } = await runningJob(4, {}, { clock, dataDir });
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 4, 1, "nginx:1.26"), updateSpec: { batchSize: 1 } });
    clock.advance(3_000);
    expect((await workflowOf(jobId)).status).toMatchObject({ state: WorkflowState.ROLLING_FORWARD, numInstancesCompleted: 1 });
    await t.close();
    t = await startTestPlane({ clock, dataDir });
    c = pelotonClients(t.plane.url);
    clock.advance(7_000);
    expect((await workflowOf(jobId)).status).toMatchObject({ state: WorkflowState.SUCCEEDED, numInstancesCompleted: 4 });
    // One instance at a time, 2.5 s each: kill (0.5 s) then start (2 s).
    const replaced = (await timeline(jobId.value)).filter((e) => e.configVersion === 2);
    expect(replaced.map((e) => [e.instanceId, e.runningMs! - 1_700_000_000_000])).toEqual([
      [0, 4500],
      [1, 7000],
      [2, 9500],
      [3, 12000],
    ]);
  });
});

describe("workflow control", () => {
  it("starts paused, stays put, and rolls after ResumeJobWorkflow", async () => {
    const { jobId, version } = await runningJob(2);
    const replaced = await c.jobs.replaceJob({
      jobId,
      version,
      spec: jobSpec("web", pool, 2, 1, "nginx:1.26"),
      updateSpec: { startPaused: true },
      opaqueData: { data: "deploy-42" },
    });
    t.clock.advance(10_000);
    expect((await workflowOf(jobId)).status?.state).toBe(WorkflowState.PAUSED);
    expect((await timeline(jobId.value)).every((e) => e.configVersion === 1)).toBe(true);
    const resumed = await c.jobs.resumeJobWorkflow({ jobId, version: replaced.version });
    expect(resumed.version?.value).toBe("2-1-3");
    t.clock.advance(10_000);
    const wf = await workflowOf(jobId);
    expect(wf.status?.state).toBe(WorkflowState.SUCCEEDED);
    expect(wf.opaqueData?.data).toBe("deploy-42");
  });

  it("aborts a workflow mid-way, leaving the rest on the old version", async () => {
    const { jobId, version } = await runningJob(4);
    const replaced = await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 4, 1, "nginx:1.26"), updateSpec: { batchSize: 1 } });
    t.clock.advance(100);
    await c.jobs.abortJobWorkflow({ jobId, version: replaced.version, opaqueData: { data: "stopped by hand" } });
    t.clock.advance(10_000);
    const wf = await workflowOf(jobId);
    expect(wf.status?.state).toBe(WorkflowState.ABORTED);
    expect(wf.opaqueData?.data).toBe("stopped by hand");
    const live = (await timeline(jobId.value)).filter((e) => e.outcome === "live");
    expect(live.map((e) => e.configVersion)).toEqual([2, 1, 1, 1]);
  });

  it("restarts the given ranges batch by batch with new pods; the others move version in place", async () => {
    const { jobId, version } = await runningJob(3);
    const restarted = await c.jobs.restartJob({ jobId, version, batchSize: 1, ranges: [{ from: 0, to: 2 }] });
    expect(restarted.version?.value).toBe("2-1-2");
    t.clock.advance(10_000);
    const live = (await timeline(jobId.value)).filter((e) => e.outcome === "live");
    expect(live.map((e) => [e.instanceId, e.podId.slice(-4), e.configVersion])).toEqual([
      [0, "-0-2", 2],
      [1, "-1-2", 2],
      [2, "-2-1", 2],
    ]);
    expect(maxDown(await timeline(jobId.value))).toBe(1);
    const wf = await workflowOf(jobId);
    expect(wf).toMatchObject({ restartBatchSize: 1, status: { type: WorkflowType.RESTART, state: WorkflowState.SUCCEEDED } });
  });
});

describe("instance failures", () => {
  it("rolls back when more instances fail than tolerated: ROLLING_BACKWARD, then ROLLED_BACK", async () => {
    const { jobId, version } = await runningJob(3);
    await t.http("POST", "/_local/faults", { api: "peloton", action: "fail-instance", target: jobId.value, count: 4 });
    const updateSpec = { batchSize: 1, maxInstanceRetries: 1, maxTolerableInstanceFailures: 1, rollbackOnFailure: true };
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 3, 1, "broken:1"), updateSpec });
    // Each instance fails twice (2.5 s per attempt plus 0.5 s back-off): instance 1 gives up at 10 s.
    t.clock.advance(9_999);
    expect((await workflowOf(jobId)).status).toMatchObject({ state: WorkflowState.ROLLING_FORWARD, numInstancesFailed: 1 });
    t.clock.advance(1);
    const rolling = await workflowOf(jobId);
    expect(rolling.status).toMatchObject({ state: WorkflowState.ROLLING_BACKWARD, prevState: WorkflowState.ROLLING_FORWARD });
    t.clock.advance(30_000);
    const wf = await workflowOf(jobId);
    expect(wf.status?.state).toBe(WorkflowState.ROLLED_BACK);
    expect(wf.events.map((e) => WorkflowState[e.state])).toEqual(["ROLLED_BACK", "ROLLING_BACKWARD", "ROLLING_FORWARD", "INITIALIZED"]);
    const job = (await c.jobs.getJob({ jobId })).jobInfo!;
    expect(job.status?.version?.value).toBe("3-1-2");
    expect(job.spec?.defaultSpec?.containers[0].container?.docker?.image).toBe("nginx:1.25");
    expect(job.status?.podStats).toEqual({ POD_STATE_RUNNING: 3 });
    expect((await timeline(jobId.value)).filter((e) => e.outcome === "failed").map((e) => e.instanceId)).toEqual([0, 0, 1, 1]);
    const events = (await c.jobs.getWorkflowEvents({ jobId, instanceId: 1 })).events;
    expect(events.map((e) => WorkflowState[e.state])).toEqual(["SUCCEEDED", "ROLLING_BACKWARD", "FAILED", "ROLLING_FORWARD"]);
    expect((await c.jobs.getWorkflowEvents({ jobId, instanceId: 2 })).events).toEqual([]);
  });

  it("rolls failed instances back even when they fill the SLA's maximum unavailable: they are down already", async () => {
    const { jobId, version } = await runningJob(3, { maximumUnavailableInstances: 2 });
    await t.http("POST", "/_local/faults", { api: "peloton", action: "fail-instance", target: jobId.value, count: 4 });
    const updateSpec = { batchSize: 1, maxInstanceRetries: 1, maxTolerableInstanceFailures: 1, rollbackOnFailure: true };
    const spec = { ...jobSpec("web", pool, 3, 1, "broken:1"), sla: { maximumUnavailableInstances: 2 } };
    await c.jobs.replaceJob({ jobId, version, spec, updateSpec });
    t.clock.advance(40_000);
    const wf = await workflowOf(jobId);
    expect(wf.status?.state).toBe(WorkflowState.ROLLED_BACK);
    expect((await c.jobs.getJob({ jobId })).jobInfo?.status?.podStats).toEqual({ POD_STATE_RUNNING: 3 });
  });

  it("retries a failing instance and succeeds within max_instance_retries", async () => {
    const { jobId, version } = await runningJob(1);
    await t.http("POST", "/_local/faults", { api: "peloton", action: "fail-instance", target: jobId.value, count: 1 });
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 1, 1, "nginx:1.26"), updateSpec: { maxInstanceRetries: 2 } });
    t.clock.advance(10_000);
    const wf = await workflowOf(jobId);
    expect(wf.status).toMatchObject({ state: WorkflowState.SUCCEEDED, numInstancesFailed: 0 });
    const pods = [];
    for await (const reply of c.jobs.listPods({ jobId })) pods.push(...reply.pods);
    expect(pods[0].status).toMatchObject({ failureCount: 1, podId: { value: `${jobId.value}-0-3` } });
  });
});
