import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPelotonClient, type PelotonClient } from "../../provider/clients/peloton/client";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { failInstances, pelotonJobs, pelotonMutations, type TimelineEntry, timeline } from "./peloton-support";

const container = (image: string) => ({ name: "web", image, resources: { cpu: 0.5, memoryMb: 64 } });
const web = (patch: Record<string, unknown>) => ({
  jobs: {
    web: {
      instanceCount: 10,
      defaultSpec: { containers: [container("nginx:1.27")] },
      sla: { maximumUnavailableInstances: 2 },
      updatePolicy: { batchSize: 2 },
      ...patch,
    },
  },
});

/** The latest moment the timeline shows: pods created after it belong to what comes next. */
function lastMoment(entries: TimelineEntry[]): number {
  return entries.reduce((max, e) => Math.max(max, e.createdMs, e.runningMs ?? 0, e.endMs ?? 0), 0);
}

/** The most instances without a running pod at any moment of the timeline, from `fromMs` on. */
function mostDownAtOnce(entries: TimelineEntry[], fromMs: number): number {
  const times = [...new Set(entries.flatMap((e) => [e.createdMs, e.runningMs ?? 0, e.endMs ?? 0]))].filter((t) => t >= fromMs);
  const instances = [...new Set(entries.map((e) => e.instanceId))];
  const running = (e: TimelineEntry, t: number) => e.runningMs !== null && e.runningMs <= t && (e.endMs === null || t < e.endMs);
  return Math.max(0, ...times.map((t) => instances.filter((i) => !entries.some((e) => e.instanceId === i && running(e, t))).length));
}

describe("Peloton: a changed job spec becomes one batched rolling update", () => {
  let t: TestStack;
  let client: PelotonClient;
  let jobId: string;

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton", timeScale: 0.1 });
    client = createPelotonClient({ endpoint: t.plane.url, caller: "someone-else" });
    await t.configure(web({}));
    const result = await t.stack.up();
    jobId = (result.outputs.jobIds as Record<string, string>).web;
  });
  afterAll(async () => {
    client?.close();
    await t?.plane.stop();
  });

  it("rolls a new image through 10 instances in 5 batches of 2 with one ReplaceJob, never more than 2 down", async () => {
    await t.configure(web({ defaultSpec: { containers: [container("nginx:1.28")] } }));
    const since = await t.plane.lastSeq();
    const started = lastMoment(await timeline(t.plane, jobId));
    const result = await t.stack.up();
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${jobId}`]);
    expect((result.outputs.workflows as Record<string, { state: string; instancesCompleted: number }>).web).toMatchObject({
      state: "SUCCEEDED",
      instancesCompleted: 10,
    });
    const entries = await timeline(t.plane, jobId);
    const newest = Math.max(...entries.map((e) => e.configVersion));
    const fresh = entries.filter((e) => e.configVersion === newest);
    const batches = [...new Set(fresh.map((e) => e.createdMs))].sort((a, b) => a - b);
    expect(batches).toHaveLength(5);
    expect(batches.map((at) => fresh.filter((e) => e.createdMs === at).map((e) => e.instanceId).sort((a, b) => a - b))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
      [8, 9],
    ]);
    expect(mostDownAtOnce(entries, started)).toBe(2);
    expect(fresh.every((e) => e.runningMs !== null && e.outcome === "live")).toBe(true);
  });

  it("changes instanceCount alone with one ReplaceJob that adds instances, as GetReplaceJobDiff said beforehand", async () => {
    const before = await client.getJob(jobId);
    const spec = { ...before.jobInfo!.spec!, instanceCount: 12 };
    const diff = await client.getReplaceJobDiff({ jobId, version: before.jobInfo!.status!.version!.value }, spec);
    const ranges = (r: { from: number; to: number }[]) => r.map((x) => [x.from, x.to]);
    expect(ranges(diff.instancesAdded)).toEqual([[10, 12]]);
    expect(ranges(diff.instancesUpdated)).toEqual([]);
    expect(ranges(diff.instancesRemoved)).toEqual([]);
    expect(ranges(diff.instancesUnchanged)).toEqual([[0, 10]]);

    await t.configure(web({ instanceCount: 12, defaultSpec: { containers: [container("nginx:1.28")] } }));
    const since = await t.plane.lastSeq();
    const started = lastMoment(await timeline(t.plane, jobId));
    await t.stack.up();
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${jobId}`]);
    // Instances 0-9 hand over to the new version without a restart; 10 and 11 start.
    const added = (await timeline(t.plane, jobId)).filter((e) => e.createdMs > started);
    expect(added.filter((e) => e.outcome === "live" && e.createdMs === e.admittedMs).map((e) => e.instanceId).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(added.filter((e) => e.admittedMs !== e.createdMs).map((e) => e.instanceId).sort((a, b) => a - b)).toEqual([10, 11]);
    const [job] = await pelotonJobs(t.plane);
    expect(job.pods.filter((p) => p.state === "RUNNING")).toHaveLength(12);
  });

  it("fails with a clear message when instances fail and the update rolls back; the job runs the old image and the change stays pending", async () => {
    const policy = { batchSize: 1, maxInstanceRetries: 1, maxTolerableInstanceFailures: 1, rollbackOnFailure: true };
    await t.configure(web({ instanceCount: 12, defaultSpec: { containers: [container("nginx:broken")] }, updatePolicy: policy }));
    await failInstances(t.plane, jobId, "ReplaceJob", 4);
    const since = await t.plane.lastSeq();
    await expect(t.stack.up()).rejects.toThrow(
      /waiting for the rolling update of job "[0-9a-f-]{36}" \(batch size 1\): TERMINAL_STATE: the rollout ended ROLLED_BACK: workflow UPDATE ROLLED_BACK: \d+ instance\(s\) done, 0 remaining, \d+ failed; pods: 12 RUNNING; last events: ROLLED_BACK at \S+; ROLLING_BACKWARD at .*the job runs its previous configuration again/,
    );
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`ReplaceJob ${jobId}`]);
    const now = await client.getJob(jobId);
    expect(now.jobInfo?.spec?.defaultSpec?.containers[0].container?.docker?.image).toBe("nginx:1.28");
    const [job] = await pelotonJobs(t.plane);
    expect(job.pods.map((p) => p.state)).toEqual(Array(12).fill("RUNNING"));
    const preview = await t.stack.preview();
    expect(changingSteps(preview).map((s) => `${s.op} ${s.name}`)).toEqual(["update web"]);
    expect(changingSteps(preview)[0].diffs).toContain("defaultSpec");
  });

  it("retries a concurrent change by someone else: a stale version is re-read and ReplaceJob sent once more", async () => {
    await t.plane.clearFaults();
    await t.configure(web({ instanceCount: 12, defaultSpec: { containers: [container("nginx:1.29")] } }));
    await t.plane.addFault({ api: "peloton", operation: "ReplaceJob", action: "delay", delayMs: 3000, count: 1 });
    const since = await t.plane.lastSeq();
    const up = t.stack.up();
    // While the provider's ReplaceJob waits in the plane, someone else restarts the job.
    await expect
      .poll(async () => (await t.plane.admin<{ faults: unknown[] }>("/_local/faults")).faults.length, { timeout: 60_000, interval: 100 })
      .toBe(0);
    const current = await client.getJob(jobId);
    await client.restartJob({ jobId, version: current.jobInfo!.status!.version!.value }, { batchSize: 12 });
    const result = await up;
    const replaces = (await t.plane.audit(since)).filter((e) => e.operation === "ReplaceJob").map((e) => e.code);
    expect(replaces).toEqual(["ABORTED", "OK"]);
    expect(result.stdout).toMatch(new RegExp(`job ${jobId} was changed by someone else \\(version \\S+ -> \\S+, workflow RESTART [A-Z_]+: .*ReplaceJob is still needed and is sent again`));
    expect((result.outputs.workflows as Record<string, { state: string }>).web.state).toBe("SUCCEEDED");
    expect((await client.getJob(jobId)).jobInfo?.spec?.defaultSpec?.containers[0].container?.docker?.image).toBe("nginx:1.29");
  });

  it("restarts every instance in batches with one RestartJob when restartNonce changes", async () => {
    await t.configure(web({ instanceCount: 12, defaultSpec: { containers: [container("nginx:1.29")] }, restartNonce: "r1" }));
    const since = await t.plane.lastSeq();
    const started = lastMoment(await timeline(t.plane, jobId));
    await t.stack.up();
    expect(pelotonMutations(await t.plane.audit(since))).toEqual([`RestartJob ${jobId}`]);
    const fresh = (await timeline(t.plane, jobId)).filter((e) => e.createdMs > started);
    expect(fresh.map((e) => e.instanceId).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(new Set(fresh.map((e) => e.createdMs)).size).toBe(6);
  });

  it("stops the job with desiredState KILLED and starts it again with RUNNING", async () => {
    const base = { instanceCount: 12, defaultSpec: { containers: [container("nginx:1.29")] }, restartNonce: "r1" };
    await t.configure(web({ ...base, desiredState: "KILLED" }));
    let result = await t.stack.up();
    expect((result.outputs.jobStates as Record<string, string>).web).toBe("KILLED");
    expect((await pelotonJobs(t.plane))[0].pods.every((p) => p.state === "KILLED")).toBe(true);
    await t.configure(web({ ...base, desiredState: "RUNNING" }));
    result = await t.stack.up();
    expect((result.outputs.jobStates as Record<string, string>).web).toBe("RUNNING");
    expect((await pelotonJobs(t.plane))[0].pods.map((p) => p.state)).toEqual(Array(12).fill("RUNNING"));
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });
});
