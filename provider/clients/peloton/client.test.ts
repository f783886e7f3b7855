import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobState, WorkflowState } from "../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { PodState } from "../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { ClusterformError } from "../../core/errors";
import { createPelotonClient, type PelotonClient } from "./client";
import type { JobSpecInput } from "./types";

afterAll(removeDataDirs);

let t: TestPlane;
let client: PelotonClient;
const noSleep = async () => {};

beforeEach(async () => {
  t = await startTestPlane();
  client = createPelotonClient({ endpoint: t.plane.url, sleep: noSleep });
});
afterEach(async () => {
  client.close();
  await t.close();
});

function webSpec(respoolId: string, instanceCount: number, image = "nginx:1.25"): JobSpecInput {
  return {
    name: "web",
    respoolId: { value: respoolId },
    instanceCount,
    defaultSpec: { containers: [{ name: "web", resource: { cpuLimit: 1, memLimitMb: 256 }, container: { type: 1, docker: { image } } }] },
  };
}

async function computePool(): Promise<string> {
  const infra = await client.createResourcePool({ name: "infrastructure", resources: [{ kind: "cpu", reservation: 8, limit: 16 }] });
  return client.createResourcePool({ name: "compute", parent: { value: infra }, resources: [{ kind: "cpu", reservation: 4, limit: 8 }] });
}

async function errorOf(call: Promise<unknown>): Promise<ClusterformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ClusterformError)) throw new Error(`expected a ClusterformError, got ${String(error)}`);
  return error;
}

describe("Peloton client against the local control plane", () => {
  it("builds a pool tree and finds pools by path", async () => {
    const compute = await computePool();
    expect(await client.lookupResourcePoolId("/infrastructure/compute")).toBe(compute);
    expect(await client.lookupResourcePoolId("/")).toBe("root");
    const detail = await client.getResourcePool(compute);
    expect(detail.respool.path?.value).toBe("/infrastructure/compute");
    expect(detail.respool.spec?.resources.map((r) => [r.kind, r.reservation, r.limit])).toEqual([["cpu", 4, 8]]);
  });

  it("creates a job under a chosen UUID, waits for it to run, replaces it and stops and deletes it", async () => {
    const pool = await computePool();
    const jobId = "7a3f1e0c-1d2b-4c5d-8e9f-0a1b2c3d4e5f";
    const created = await client.createJob(webSpec(pool, 2), { jobId, opaqueData: "first" });
    expect(created).toEqual({ jobId, version: "1-1-1" });
    t.clock.advance(2000);
    const running = await client.getJob(jobId);
    expect(running.jobInfo?.status?.state).toBe(JobState.RUNNING);
    const replaced = await client.replaceJob(created, webSpec(pool, 2, "nginx:1.26"), { updateSpec: { batchSize: 1 }, opaqueData: "rollout-7" });
    expect(replaced.version).toBe("2-1-2");
    t.clock.advance(10_000);
    const updates = await client.listJobUpdates(jobId);
    expect(updates.map((u) => [u.status?.state, u.opaqueData?.data])).toEqual([
      [WorkflowState.SUCCEEDED, "rollout-7"],
      [WorkflowState.SUCCEEDED, "first"],
    ]);
    const pods = await client.listPods(jobId);
    expect(pods.map((p) => [p.podName?.value, p.status?.state, p.status?.version?.value])).toEqual([
      [`${jobId}-0`, PodState.RUNNING, "2-0-0"],
      [`${jobId}-1`, PodState.RUNNING, "2-0-0"],
    ]);
    const stopped = await client.stopJob(replaced);
    t.clock.advance(500);
    await client.deleteJob(stopped);
    expect((await errorOf(client.getJob(jobId))).code).toBe("NotFound");
  });

  it.each([
    ["a stale version", "1-0-1", "Conflict", "ABORTED"],
    ["a malformed version", "latest", "InvalidArgument", "INVALID_ARGUMENT"],
  ])("translates %s into %s", async (_what, version, code, platformCode) => {
    const pool = await computePool();
    const { jobId } = await client.createJob(webSpec(pool, 1));
    const error = await errorOf(client.stopJob({ jobId, version }));
    expect(error).toMatchObject({ code, platformCode, operation: `StopJob job "${jobId}"` });
  });

  it("retries reads through transient errors but never a mutation", async () => {
    const pool = await computePool();
    const { jobId } = await client.createJob(webSpec(pool, 1));
    await t.http("POST", "/_local/faults", { api: "peloton", operation: "GetJob", action: "error", code: "UNAVAILABLE", count: 2 });
    expect((await client.getJob(jobId)).jobInfo?.jobId?.value).toBe(jobId);
    await t.http("POST", "/_local/faults", { api: "peloton", operation: "CreateJob", action: "error", code: "UNAVAILABLE", count: 1 });
    expect((await errorOf(client.createJob(webSpec(pool, 1)))).code).toBe("Unavailable");
    const audit = (await t.http("GET", "/_local/audit")).body as { entries: { operation: string; code: string }[] };
    expect(audit.entries.filter((e) => e.operation === "GetJob").map((e) => e.code)).toEqual(["UNAVAILABLE", "UNAVAILABLE", "OK"]);
    expect(audit.entries.filter((e) => e.operation === "CreateJob").map((e) => e.code)).toEqual(["OK", "UNAVAILABLE"]);
  });

  it("explains a server without the v1alpha ResourcePoolService (a real job manager or resource manager)", async () => {
    const jobmgr = createPelotonClient({ endpoint: t.plane.url, service: "peloton-jobmgr", sleep: noSleep });
    try {
      const error = await errorOf(jobmgr.lookupResourcePoolId("/infrastructure"));
      expect(error.code).toBe("FailedPrecondition");
      expect(error.platformCode).toBe("UNIMPLEMENTED");
      expect(error.platformMessage).toContain("real Peloton resource managers serve only the v0 API (peloton.api.v0.respool.ResourceManager)");
      expect(error.platformMessage).toContain('unrecognized procedure "peloton.api.v1alpha.respool.ResourcePoolService::LookupResourcePoolID"');
    } finally {
      jobmgr.close();
    }
  });

  it("explains a plain gRPC server that has no ResourcePoolService at all", async () => {
    const server = http2.createServer(connectNodeAdapter({ routes: () => {} }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bare = createPelotonClient({ endpoint, sleep: noSleep });
    try {
      const error = await errorOf(bare.queryResourcePools());
      expect(error).toMatchObject({ code: "FailedPrecondition", platformCode: "UNIMPLEMENTED", operation: "QueryResourcePools" });
      expect(error.message).toContain(`the Peloton server at ${endpoint} does not serve peloton.api.v1alpha.respool.ResourcePoolService`);
    } finally {
      bare.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers what a replacement would change", async () => {
    const pool = await computePool();
    const ref = await client.createJob(webSpec(pool, 2));
    const diff = await client.getReplaceJobDiff(ref, webSpec(pool, 3));
    expect(diff.instancesAdded.map((r) => [r.from, r.to])).toEqual([[2, 3]]);
    expect(diff.instancesUnchanged.map((r) => [r.from, r.to])).toEqual([[0, 2]]);
  });

  it("finds jobs by name and by query", async () => {
    const pool = await computePool();
    const { jobId } = await client.createJob(webSpec(pool, 1));
    expect(await client.getJobIdsFromName("web")).toEqual([jobId]);
    const found = await client.queryJobs({ respool: { value: "/infrastructure/compute" }, name: "we" });
    expect(found.records.map((r) => r.jobId?.value)).toEqual([jobId]);
    expect((await client.listJobs()).map((j) => j.name)).toEqual(["web"]);
  });
});
