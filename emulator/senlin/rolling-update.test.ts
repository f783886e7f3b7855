import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { batchSize } from "./rolling-update";
import { type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

interface Action {
  id: string;
  action: string;
  cause: string;
  target: string;
  status: string;
  status_reason: string;
  start_time: number | null;
  end_time: number | null;
  inputs: Record<string, unknown>;
  data: Record<string, unknown>;
  depends_on: string[];
  depended_by: string[];
}
interface Node {
  id: string;
  status: string;
  profile_id: string;
}

const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "debian-12" } };

/** A plane with an ACTIVE cluster of `size` nodes and a second profile of the same type. */
async function activeCluster(size: number): Promise<{ id: string; next: string; old: string }> {
  t = await startTestPlane();
  s = await senlinSession(t);
  const { id } = await s.createCluster("web", { desired_capacity: size });
  t.clock.advance(3000);
  const next = (await s.call("POST", "/v1/profiles", { profile: { name: "next", spec: SPEC } })).body as { profile: { id: string } };
  const cluster = (await s.call("GET", `/v1/clusters/${id}`)).body as { cluster: { profile_id: string; status: string } };
  expect(cluster.cluster.status).toBe("ACTIVE");
  return { id, next: next.profile.id, old: cluster.cluster.profile_id };
}

async function attachBatch(clusterId: string, properties: Record<string, unknown>): Promise<void> {
  const policy = await s.call("POST", "/v1/policies", { policy: { name: "batch", spec: { type: "senlin.policy.batch", version: "1.0", properties } } });
  expect(policy.status).toBe(201);
  const attach = await s.call("POST", `/v1/clusters/${clusterId}/actions`, { policy_attach: { policy_id: "batch" } });
  expect(attach.status).toBe(202);
  t.clock.advance(500);
}

async function updateProfile(clusterId: string, profileId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await s.call("PATCH", `/v1/clusters/${clusterId}`, { cluster: { profile_id: profileId, ...extra } });
  expect(response.status).toBe(202);
  return s.actionOf(response);
}

const nodeUpdates = async () =>
  ((await s.call("GET", "/v1/actions?action=NODE_UPDATE&sort=created_at")).body as { actions: Action[] }).actions.filter((a) => a.cause === "Derived Action");
const nodes = async (clusterId: string) => ((await s.call("GET", `/v1/nodes?cluster_id=${clusterId}`)).body as { nodes: Node[] }).nodes;
const action = async (id: string) => ((await s.call("GET", `/v1/actions/${id}`)).body as { action: Action }).action;
const clusterOf = async (id: string) => ((await s.call("GET", `/v1/clusters/${id}`)).body as { cluster: { status: string; profile_id: string; name: string } }).cluster;

describe("batch size (batch_policy._cal_batch_size for CLUSTER_UPDATE)", () => {
  it.each([
    [5, 1, -1, 4],
    [5, 3, -1, 2],
    [5, 1, 2, 2],
    [3, 2, 1, 1],
    [2, 2, -1, 1],
    [3, 5, -1, 2],
    [1, 1, -1, 1],
    [4, 0, 10, 4],
  ])("%i nodes, min_in_service %i, max_batch_size %i: %i per batch", (total, minInService, maxBatchSize, size) => {
    expect(batchSize(total, { minInService, maxBatchSize, pauseTime: 0 })).toBe(size);
  });
});

describe("rolling update (CLUSTER_UPDATE with a new profile)", () => {
  it("without a batch policy updates every node at once, with derived NODE_UPDATE actions, and switches the cluster's profile at the end", async () => {
    const { id, next, old } = await activeCluster(3);
    const actionId = await updateProfile(id, next, { name: "web2" });
    const children = await nodeUpdates();
    expect(children).toHaveLength(3);
    expect(new Set(children.map((c) => c.start_time)).size).toBe(1);
    expect(children.every((c) => c.inputs.new_profile_id === next && c.depended_by[0] === actionId)).toBe(true);
    expect((await nodes(id)).map((n) => n.status)).toEqual(["UPDATING", "UPDATING", "UPDATING"]);
    // The name is stored first, the profile only when every node is done.
    expect(await clusterOf(id)).toMatchObject({ status: "UPDATING", name: "web2", profile_id: old });
    t.clock.advance(1000);
    expect((await nodes(id)).map((n) => [n.status, n.profile_id])).toEqual(Array(3).fill(["ACTIVE", next]));
    // The cluster action ends just after its last node action.
    t.clock.advance(1);
    expect(await action(actionId)).toMatchObject({ status: "SUCCEEDED", status_reason: "Action completed successfully.", data: {} });
    // Ended: it depends on nothing any more (Senlin 14 clears the dependencies when they are done).
    expect((await action(actionId)).depends_on).toEqual([]);
    expect(await clusterOf(id)).toMatchObject({ status: "ACTIVE", profile_id: next });
  });

  it("with a batch policy updates max_batch_size nodes at a time, pausing pause_time between batches, never below min_in_service", async () => {
    const { id, next } = await activeCluster(3);
    await attachBatch(id, { min_in_service: 2, max_batch_size: 1, pause_time: 2 });
    const actionId = await updateProfile(id, next);
    const plan = (await action(actionId)).data as { update: { pause_time: number; plan: string[][] } };
    expect(plan).toMatchObject({ status: "OK", reason: "Batching request validated.", update: { pause_time: 2 } });
    expect(plan.update.plan.map((b) => b.length)).toEqual([1, 1, 1]);
    const seen: number[] = [];
    // Every 250 ms through the roll (3 batches of 1 s, each followed by a 2 s pause).
    for (let ms = 0; ms < 9000; ms += 250) {
      const states = (await nodes(id)).map((n) => n.status);
      seen.push(states.filter((st) => st === "UPDATING").length);
      expect(states.filter((st) => st === "ACTIVE").length).toBeGreaterThanOrEqual(2);
      t.clock.advance(250);
    }
    expect(Math.max(...seen)).toBe(1);
    const children = await nodeUpdates();
    expect(children.map((c) => c.target)).toEqual(plan.update.plan.flat());
    const starts = children.map((c) => c.start_time ?? 0);
    expect(starts.map((st) => st - starts[0])).toEqual([0, 3, 6]);
    expect(children.every((c, i) => i === 0 || (c.start_time ?? 0) >= (children[i - 1].end_time ?? Infinity))).toBe(true);
    expect(await action(actionId)).toMatchObject({ status: "SUCCEEDED", end_time: starts[0] + 9 });
    expect((await nodes(id)).map((n) => n.profile_id)).toEqual([next, next, next]);
    expect(await clusterOf(id)).toMatchObject({ status: "ACTIVE", profile_id: next });
  });

  it("takes the policy's defaults (min_in_service 1, no batch limit) and puts ERROR nodes in the first batch", async () => {
    const { id, next } = await activeCluster(3);
    const [, second] = await nodes(id);
    // A node update that fails leaves its node ERROR.
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "UpdateNode", action: "fail-operation", message: "no valid host" });
    expect((await s.call("PATCH", `/v1/nodes/${second.id}`, { node: { name: "broken" } })).status).toBe(202);
    t.clock.advance(1000);
    expect((await nodes(id)).map((n) => n.status)).toEqual(["ACTIVE", "ERROR", "ACTIVE"]);
    await attachBatch(id, { pause_time: 0 });
    const actionId = await updateProfile(id, next);
    const plan = (await action(actionId)).data as { update: { pause_time: number; plan: string[][] } };
    expect(plan.update).toMatchObject({ pause_time: 0 });
    // 3 nodes above min_in_service 1: batches of 2, the ERROR node first.
    expect(plan.update.plan.map((b) => b.length)).toEqual([2, 1]);
    expect(plan.update.plan[0][0]).toBe(second.id);
    t.clock.advance(2001);
    expect(await action(actionId)).toMatchObject({ status: "SUCCEEDED" });
  });

  it("a disabled batch policy is skipped; profile_only switches the cluster without touching nodes", async () => {
    const { id, next, old } = await activeCluster(2);
    await attachBatch(id, { max_batch_size: 1, pause_time: 5 });
    expect((await s.call("POST", `/v1/clusters/${id}/actions`, { policy_update: { policy_id: "batch", enabled: false } })).status).toBe(202);
    t.clock.advance(500);
    await updateProfile(id, next);
    expect(new Set((await nodeUpdates()).map((c) => c.start_time)).size).toBe(1);
    t.clock.advance(1001);
    await updateProfile(id, old, { profile_only: true });
    t.clock.advance(1500);
    expect(await nodeUpdates()).toHaveLength(2);
    expect((await nodes(id)).map((n) => n.profile_id)).toEqual([next, next]);
    expect((await clusterOf(id)).profile_id).toBe(old);
  });

  it("cancelling the update cancels the batches not yet run, and the nodes stay ACTIVE", async () => {
    const { id, next } = await activeCluster(2);
    await attachBatch(id, { min_in_service: 1, max_batch_size: 1, pause_time: 10 });
    const actionId = await updateProfile(id, next);
    t.clock.advance(1500);
    expect((await s.call("PATCH", `/v1/actions/${actionId}`, { action: { status: "CANCELLED" } })).status).toBe(202);
    t.clock.advance(20_000);
    expect((await nodeUpdates()).map((c) => c.status)).toEqual(["SUCCEEDED", "CANCELLED"]);
    expect((await nodes(id)).map((n) => n.status)).toEqual(["ACTIVE", "ACTIVE"]);
    expect((await action(actionId)).status).toBe("CANCELLED");
  });
});
