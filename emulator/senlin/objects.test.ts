import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

async function start(): Promise<void> {
  t = await startTestPlane();
  s = await senlinSession(t);
}

describe("profiles and policies", () => {
  it("creates (201), reads, lists and deletes (204) a profile", async () => {
    await start();
    const id = await s.createProfile("small");
    const got = (await s.call("GET", "/v1/profiles/small")).body as { profile: Record<string, unknown> };
    expect(got.profile).toMatchObject({ id, name: "small", type: "os.nova.server-1.0", metadata: {}, created_at: "2023-11-14T22:13:20Z", updated_at: null });
    expect(((await s.call("GET", "/v1/profiles?type=os.nova.server-1.0")).body as { profiles: unknown[] }).profiles).toHaveLength(1);
    expect((await s.call("DELETE", `/v1/profiles/${id}`)).status).toBe(204);
    expect((await s.call("GET", `/v1/profiles/${id}`)).status).toBe(404);
  });

  it("renames a profile and a policy (200), refusing a spec change and an empty update", async () => {
    await start();
    await s.createProfile("small");
    const renamed = await s.call("PATCH", "/v1/profiles/small", { profile: { name: "tiny", metadata: { a: 1 } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ profile: { name: "tiny", metadata: { a: 1 }, updated_at: "2023-11-14T22:13:20Z" } });
    expect((await s.call("PATCH", "/v1/profiles/tiny", { profile: { name: "tiny" } })).body).toMatchObject({ error: { message: "No property needs an update." } });
    expect((await s.call("PATCH", "/v1/profiles/tiny", { profile: { spec: {} } })).status).toBe(400);
    await s.call("POST", "/v1/policies", { policy: { name: "del", spec: { type: "senlin.policy.deletion", version: "1.1" } } });
    expect((await s.call("PATCH", "/v1/policies/del", { policy: { name: "deletion" } })).body).toMatchObject({ policy: { name: "deletion" } });
  });

  it.each([
    ["profile", { profile: { name: "x", spec: { type: "os.nova.nothing", version: "1.0" } } }, "The profile_type 'os.nova.nothing-1.0' could not be found."],
    ["policy", { policy: { name: "x", spec: { type: "senlin.policy.magic", version: 1 } } }, "The policy_type 'senlin.policy.magic-1.0' could not be found."],
  ])("refuses an unknown %s type with 404 ResourceNotFound, as Senlin 14 does", async (kind, body, message) => {
    await start();
    const response = await s.call("POST", kind === "profile" ? "/v1/profiles" : "/v1/policies", body);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: { message, type: "ResourceNotFound" } });
  });

  it("refuses deleting a profile a cluster uses with 409", async () => {
    await start();
    await s.createCluster("web");
    const response = await s.call("DELETE", "/v1/profiles/web-profile");
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error: { type: "ResourceInUse" } });
  });
});

describe("nodes", () => {
  it("creates an orphan node (202, Location) that becomes ACTIVE, then deletes it", async () => {
    await start();
    await s.createProfile("p");
    const created = await s.call("POST", "/v1/nodes", { node: { name: "n1", profile_id: "p", role: "worker" } });
    expect(created.status).toBe(202);
    expect((created.body as { node: Record<string, unknown> }).node).toMatchObject({ name: "n1", status: "INIT", cluster_id: "", index: -1, role: "worker", tainted: false });
    expect((await s.call("GET", "/v1/nodes/n1")).body).toMatchObject({ node: { status: "CREATING" } });
    t.clock.advance(2000);
    expect((await s.call("GET", "/v1/nodes/n1")).body).toMatchObject({ node: { status: "ACTIVE", physical_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const deleted = await s.call("DELETE", "/v1/nodes/n1");
    expect([deleted.status, deleted.headers.get("location")?.startsWith(`${t.plane.url}/v1/actions/`)]).toEqual([202, true]);
    t.clock.advance(1000);
    expect((await s.call("GET", "/v1/nodes/n1")).status).toBe(404);
  });

  it("creates a node into a cluster, raising its desired capacity", async () => {
    await start();
    const { id } = await s.createCluster("web", { desired_capacity: 1 });
    t.clock.advance(3000);
    const created = await s.call("POST", "/v1/nodes", { node: { name: "n2", profile_id: "web-profile", cluster_id: "web" } });
    expect((created.body as { node: { cluster_id: string; index: number } }).node).toMatchObject({ cluster_id: id, index: 2 });
    t.clock.advance(2000);
    expect((await s.call("GET", "/v1/clusters/web")).body).toMatchObject({ cluster: { desired_capacity: 2, status: "ACTIVE" } });
  });
});

describe("actions", () => {
  it("lists the caller's actions with filters; cluster_id shows from 1.14", async () => {
    await start();
    const { id } = await s.createCluster("web");
    const list = (await s.call("GET", `/v1/actions?target=${id}`)).body as { actions: Record<string, unknown>[] };
    expect(list.actions.map((a) => [a.action, a.cluster_id])).toEqual([["CLUSTER_CREATE", id]]);
    const old = (await s.call("GET", "/v1/actions", undefined, { version: "1.13" })).body as { actions: Record<string, unknown>[] };
    expect("cluster_id" in old.actions[0]).toBe(false);
    expect(old.actions[0]).toMatchObject({ name: `cluster_create_${id.slice(0, 8)}`, cause: "RPC Request", interval: -1, start_time: 1_700_000_000 });
  });
});

describe("action cancel (1.12)", () => {
  it("cancels a running resize: new nodes end in ERROR, the cluster is evaluated, the action CANCELLED", async () => {
    await start();
    await s.createCluster("web", { desired_capacity: 1, max_size: 3 });
    t.clock.advance(3000);
    const resize = await s.call("POST", "/v1/clusters/web/actions", { resize: { adjustment_type: "EXACT_CAPACITY", number: 2 } });
    const id = s.actionOf(resize);
    const cancel = (version?: string) => s.call("PATCH", `/v1/actions/${id}`, { action: { status: "CANCELLED" } }, version ? { version } : {});
    expect((await cancel("1.11")).status).toBe(400);
    t.clock.advance(500);
    expect((await cancel()).status).toBe(202);
    const action = (await s.call("GET", `/v1/actions/${id}`)).body as { action: Record<string, unknown> };
    expect(action.action).toMatchObject({ status: "CANCELLED", status_reason: "Action execution cancelled.", end_time: 1_700_000_003.5 });
    expect((await s.call("GET", "/v1/clusters/web")).body).toMatchObject({
      cluster: { status: "WARNING", status_reason: "CLUSTER_RESIZE: number of active nodes is below desired_capacity (2)." },
    });
    const again = await cancel();
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { type: "ActionImmutable" } });
    t.clock.advance(5000);
    expect(((await s.call("GET", `/v1/actions/${id}`)).body as { action: { status: string } }).action.status).toBe("CANCELLED");
  });

  it("refuses any status but CANCELLED", async () => {
    await start();
    const { id, action } = await s.createCluster("web");
    const response = await s.call("PATCH", `/v1/actions/${action}`, { action: { status: "SUCCEEDED" } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { message: `Unknown status SUCCEEDED for action cluster_create_${id.slice(0, 8)}` } });
  });
});

describe("admin views", () => {
  it("shows clusters with members, bindings and actions in flight across projects", async () => {
    await start();
    await s.createCluster("web", { desired_capacity: 2 });
    const view = (await t.http("GET", "/_local/senlin/clusters")).body as { clusters: Record<string, unknown>[] };
    expect(view.clusters).toHaveLength(1);
    expect(view.clusters[0]).toMatchObject({ name: "web", status: "CREATING", bindings: [] });
    expect(view.clusters[0].members).toHaveLength(2);
    expect((view.clusters[0].actions_in_flight as { action: string }[]).map((a) => a.action)).toEqual(["CLUSTER_CREATE"]);
    t.clock.advance(3000);
    const later = (await t.http("GET", "/_local/senlin/clusters")).body as { clusters: Record<string, unknown>[] };
    expect(later.clusters[0]).toMatchObject({ status: "ACTIVE", actions_in_flight: [] });
    for (const path of ["nodes", "actions", "policies", "profiles"]) expect((await t.http("GET", `/_local/senlin/${path}`)).status).toBe(200);
  });
});

describe("routing", () => {
  it.each([
    ["GET", "/v1/nowhere", 404, "HTTPNotFound"],
    ["PUT", "/v1/clusters", 405, "HTTPMethodNotAllowed"],
    // Routed, but its policy rule is not registered: oslo.policy fails closed.
    ["POST", "/v1/actions", 403, "Forbidden"],
  ])("answers %s %s with %i in the FaultWrapper", async (method, path, status, type) => {
    await start();
    const response = await s.call(method, path);
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code: status, error: { code: status, type } });
  });

  it("queues a delete behind a running resize instead of refusing it", async () => {
    await start();
    await s.createCluster("web", { desired_capacity: 1, max_size: 3 });
    t.clock.advance(3000);
    await s.call("POST", "/v1/clusters/web/actions", { resize: { adjustment_type: "EXACT_CAPACITY", number: 2 } });
    const deleted = await s.call("DELETE", "/v1/clusters/web");
    expect(deleted.status).toBe(202);
    const action = async () => ((await s.call("GET", `/v1/actions/${s.actionOf(deleted)}`)).body as { action: { status: string } }).action.status;
    expect(await action()).toBe("READY");
    expect((await s.call("GET", "/v1/clusters/web")).body).toMatchObject({ cluster: { status: "RESIZING" } });
    t.clock.advance(2000);
    expect([await action(), ((await s.call("GET", "/v1/clusters/web")).body as { cluster: { status: string } }).cluster.status]).toEqual(["RUNNING", "DELETING"]);
    t.clock.advance(2000);
    expect((await s.call("GET", "/v1/clusters/web")).status).toBe(404);
  });
});
