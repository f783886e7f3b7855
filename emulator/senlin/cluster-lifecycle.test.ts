import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { issueTestToken, type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

async function start(options: Parameters<typeof startTestPlane>[0] = {}): Promise<void> {
  t = await startTestPlane(options);
  s = await senlinSession(t);
}

type Cluster = { id: string; status: string; status_reason: string; nodes: string[]; desired_capacity: number; created_at: string | null };

async function cluster(identity: string): Promise<Cluster> {
  return ((await s.call("GET", `/v1/clusters/${identity}`)).body as { cluster: Cluster }).cluster;
}

async function action(id: string): Promise<{ status: string; action: string; status_reason: string }> {
  return ((await s.call("GET", `/v1/actions/${id}`)).body as { action: { status: string; action: string; status_reason: string } }).action;
}

describe("cluster create", () => {
  it("answers 202 with the INIT cluster and a Location of its CLUSTER_CREATE action", async () => {
    await start();
    const profileId = await s.createProfile("p1");
    const response = await s.call("POST", "/v1/clusters", { cluster: { name: "web", profile_id: "p1", desired_capacity: 2, max_size: 4 } });
    expect(response.status).toBe(202);
    expect(response.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/actions\/[0-9a-f-]{36}$/);
    expect(response.headers.get("x-openstack-request-id")).toMatch(/^req-[0-9a-f-]{36}$/);
    expect(response.headers.get("openstack-api-version")).toBe("clustering 1.14");
    const body = (response.body as { cluster: Record<string, unknown> }).cluster;
    expect(body).toMatchObject({
      name: "web",
      profile_id: profileId,
      profile_name: "p1",
      status: "INIT",
      status_reason: "Initializing",
      desired_capacity: 2,
      min_size: 0,
      max_size: 4,
      timeout: 3600,
      init_at: "2023-11-14T22:13:20Z",
      created_at: null,
      nodes: [],
      policies: [],
      metadata: {},
    });
    expect(Object.keys(body)).toEqual([...Object.keys(body)].sort());
    expect(await action(s.actionOf(response))).toMatchObject({ action: "CLUSTER_CREATE", status: "RUNNING" });
  });

  it("is CREATING with its nodes for 3 s, then ACTIVE with active nodes", async () => {
    await start();
    const { id, action: actionId } = await s.createCluster("web", { desired_capacity: 2 });
    t.clock.advance(2999);
    const creating = await cluster(id);
    expect(creating).toMatchObject({ status: "CREATING", status_reason: "Creation in progress", created_at: null });
    expect(creating.nodes).toHaveLength(2);
    t.clock.advance(1);
    expect(await cluster("web")).toMatchObject({
      status: "ACTIVE",
      status_reason: "CLUSTER_CREATE: number of active nodes is equal or above desired_capacity (2).",
      created_at: "2023-11-14T22:13:23Z",
    });
    expect(await action(actionId)).toMatchObject({ status: "SUCCEEDED", status_reason: "Action completed successfully." });
    const nodes = (await s.call("GET", `/v1/nodes?cluster_id=web`)).body as { nodes: { name: string; status: string; index: number }[] };
    expect(nodes.nodes.map((n) => [n.status, n.index])).toEqual([
      ["ACTIVE", 1],
      ["ACTIVE", 2],
    ]);
    // Senlin's default name format, node-$8R: eight random characters, a letter first.
    expect(nodes.nodes.every((n) => /^node-[A-Za-z][A-Za-z0-9]{7}$/.test(n.name))).toBe(true);
    expect(new Set(nodes.nodes.map((n) => n.name)).size).toBe(2);
  });

  it("scales every action's duration by the time scale", async () => {
    await start({ timeScale: 0.5 });
    const { id } = await s.createCluster("web", { desired_capacity: 1 });
    t.clock.advance(1499);
    expect((await cluster(id)).status).toBe("CREATING");
    t.clock.advance(1);
    expect((await cluster(id)).status).toBe("ACTIVE");
  });

  it.each([
    ["a name with a space", { name: "my web", profile_id: "p" }, "Invalid value for 'name': \"my web\": contains illegal characters", "HTTPBadRequest"],
    ["an unknown profile", { name: "web", profile_id: "ghost" }, "The specified profile 'ghost' could not be found.", "BadRequest"],
    ["desired above max", { name: "web", profile_id: "p", desired_capacity: 3, max_size: 2 }, "The target capacity (3) is greater than the specified max_size (2).", "BadRequest"],
    ["desired below min", { name: "web", profile_id: "p", desired_capacity: 1, min_size: 2 }, "The target capacity (1) is less than the specified min_size (2).", "BadRequest"],
    ["a negative min_size", { name: "web", profile_id: "p", min_size: -1 }, "Invalid value for 'min_size': -1", "HTTPBadRequest"],
    ["an unknown key", { name: "web", profile_id: "p", size: 3 }, "Additional properties are not allowed ('size' was unexpected)", "HTTPBadRequest"],
    ["more nodes than a cluster may hold", { name: "web", profile_id: "p", desired_capacity: 1001 }, "maximum number of nodes allowed per cluster (1000)", "BadRequest"],
  ])("refuses %s with a 400 FaultWrapper and stores nothing", async (_, body, message, type) => {
    await start();
    await s.createProfile("p");
    const response = await s.call("POST", "/v1/clusters", { cluster: body });
    expect(response.status).toBe(400);
    // A body of the wrong shape is refused by the API layer (webob's HTTPBadRequest), sizes and names by the engine.
    expect(response.body).toMatchObject({ code: 400, title: "Bad Request", error: { code: 400, type } });
    expect((response.body as { error: { message: string } }).error.message).toContain(message);
    expect(((await s.call("GET", "/v1/clusters")).body as { clusters: unknown[] }).clusters).toEqual([]);
  });

  it("refuses a body without the cluster key", async () => {
    await start();
    const response = await s.call("POST", "/v1/clusters", { name: "web" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { message: "Malformed request data, missing 'cluster' key in request body." } });
  });
});

describe("lookups and errors", () => {
  it("finds a cluster by UUID, name and short id, and answers 404 in the FaultWrapper otherwise", async () => {
    await start();
    const { id } = await s.createCluster("web");
    for (const identity of [id, "web", id.slice(0, 6)]) expect((await cluster(identity)).id).toBe(id);
    const missing = await s.call("GET", "/v1/clusters/ghost");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 404,
      title: "Not Found",
      explanation: "The resource could not be found.",
      error: { code: 404, type: "ResourceNotFound", message: "The cluster 'ghost' could not be found." },
    });
  });

  it("answers 400 MultipleChoices for an ambiguous name", async () => {
    await start();
    await s.createCluster("web");
    await s.createCluster("web");
    const response = await s.call("GET", "/v1/clusters/web");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { type: "MultipleChoices" } });
  });

  it("answers 401 with keystonemiddleware's body without a valid token, and audits it", async () => {
    await start();
    for (const token of [null, "not-a-token"]) {
      const response = await s.call("GET", "/v1/clusters", undefined, { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 401, message: "The request you have made requires authentication.", title: "Unauthorized" } });
      expect(response.headers.get("www-authenticate")).toBe(`Keystone uri="${t.plane.url}/v3"`);
    }
    const audit = (await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] };
    expect(audit.entries.filter((e) => e.api === "senlin").map((e) => [e.operation, e.code])).toEqual([
      ["ListClusters", "UNAUTHENTICATED"],
      ["ListClusters", "UNAUTHENTICATED"],
    ]);
  });

  it("refuses an expired token", async () => {
    await start({ platformOptions: { keystone: { tokenTtlSeconds: 60 } } });
    expect((await s.call("GET", "/v1/clusters")).status).toBe(200);
    t.clock.advance(60_000);
    expect((await s.call("GET", "/v1/clusters")).status).toBe(401);
  });

  it("keeps one project's clusters invisible to another project's token", async () => {
    await start({ platformOptions: { keystone: { extraUsers: [{ name: "alice", password: "pw", project: "demo", admin: false }] } } });
    const { id } = await s.createCluster("web");
    const alice = await senlinSession(t, "alice", "pw", "demo");
    expect(((await alice.call("GET", "/v1/clusters")).body as { clusters: unknown[] }).clusters).toEqual([]);
    expect((await alice.call("GET", `/v1/clusters/${id}`)).status).toBe(404);
    expect((await alice.call("DELETE", "/v1/clusters/web")).status).toBe(404);
    expect((await alice.call("GET", "/v1/clusters?global_project=true")).status).toBe(403);
    const global = (await s.call("GET", "/v1/clusters?global_project=true")).body as { clusters: { id: string }[] };
    expect(global.clusters.map((c) => c.id)).toEqual([id]);
  });

  it("answers clustering 1.15 with 406 InvalidGlobalAPIVersion", async () => {
    await start();
    const response = await s.call("GET", "/v1/clusters", undefined, { version: "1.15" });
    expect(response.status).toBe(406);
    expect(response.body).toMatchObject({ error: { type: "InvalidGlobalAPIVersion" } });
  });

  it("answers a malformed version with webob's own 400 page, HTML, as Senlin 14's version middleware does", async () => {
    await start();
    const response = await s.call("GET", "/v1/clusters", undefined, { version: "one" });
    expect([response.status, response.headers.get("content-type")]).toEqual([400, "text/html; charset=UTF-8"]);
    expect(response.text).toContain("<h1>400 Bad Request</h1>");
    expect(response.text).toContain("API Version String &#x27;one&#x27; is of invalid format. It must be of format &#x27;major.minor&#x27;.");
  });

  it("accepts a name starting with a digit, as Senlin 14 does", async () => {
    await start();
    await s.createProfile("p");
    expect((await s.call("POST", "/v1/clusters", { cluster: { name: "1web", profile_id: "p" } })).status).toBe(202);
  });

  it("names the version it served on every answer a handler returns (1.0 when none is requested), never on an error or a raised 204", async () => {
    await start();
    const response = await s.call("GET", "/v1/clusters", undefined, { version: undefined });
    expect(response.status).toBe(200);
    expect([response.headers.get("openstack-api-version"), response.headers.get("vary")]).toEqual(["clustering 1.0", "OpenStack-API-Version"]);
    const missing = await s.call("GET", "/v1/clusters/nope", undefined, { version: "1.10" });
    expect([missing.status, missing.headers.get("openstack-api-version")]).toEqual([404, null]);
    await s.createProfile("gone");
    const deleted = await s.call("DELETE", "/v1/profiles/gone", undefined, { version: "1.10" });
    expect([deleted.status, deleted.headers.get("openstack-api-version")]).toEqual([204, null]);
  });

  it("plays an older server when its maximum microversion is configured lower", async () => {
    await start({ platformOptions: { senlin: { maxMicroversion: "1.2" } } });
    const response = await s.call("GET", "/v1/clusters", undefined, { version: "1.3" });
    expect(response.status).toBe(406);
    expect(response.body).toMatchObject({ error: { message: "Version '1.3' is not supported by the API. Minimum is '1.0' and maximum is '1.2'." } });
    expect((await s.call("GET", "/v1/clusters", undefined, { version: "latest" })).headers.get("openstack-api-version")).toBe("clustering 1.2");
  });

  it("lists with filters, sort, marker and limit, and refuses unknown query keys", async () => {
    await start({ timeScale: 0 });
    for (const name of ["b", "a", "c"]) await s.createCluster(name);
    const names = async (query: string) =>
      ((await s.call("GET", `/v1/clusters${query}`)).body as { clusters: { name: string }[] }).clusters.map((c) => c.name);
    expect(await names("")).toEqual(["b", "a", "c"]);
    expect(await names("?sort=name:desc")).toEqual(["c", "b", "a"]);
    expect(await names("?name=a")).toEqual(["a"]);
    expect(await names("?status=ACTIVE&limit=2")).toEqual(["b", "a"]);
    const [first] = ((await s.call("GET", "/v1/clusters?sort=name")).body as { clusters: { id: string }[] }).clusters;
    expect(await names(`?sort=name&marker=${first.id}`)).toEqual(["b", "c"]);
    expect((await s.call("GET", "/v1/clusters?colour=red")).body).toMatchObject({ error: { message: "Invalid parameter 'colour'", type: "HTTPBadRequest" } });
  });
});

describe("cluster delete", () => {
  it("is DELETING for 2 s, then gone; its action stays readable", async () => {
    await start();
    const { id } = await s.createCluster("web", { desired_capacity: 1 });
    t.clock.advance(3000);
    const response = await s.call("DELETE", "/v1/clusters/web");
    expect([response.status, response.text]).toEqual([202, "null"]);
    const deleteAction = s.actionOf(response);
    expect(await cluster(id)).toMatchObject({ status: "DELETING", status_reason: "Deletion in progress" });
    t.clock.advance(2000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).status).toBe(404);
    expect(await action(deleteAction)).toMatchObject({ action: "CLUSTER_DELETE", status: "SUCCEEDED" });
    expect(((await s.call("GET", "/v1/nodes")).body as { nodes: unknown[] }).nodes).toEqual([]);
  });

  it("refuses with 409 while the cluster is being created, unless forced (1.8)", async () => {
    await start();
    await s.createCluster("web");
    const refused = await s.call("DELETE", "/v1/clusters/web");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { type: "ActionInProgress", message: "The cluster 'web' is in status CREATING." } });
    expect((await s.call("DELETE", "/v1/clusters/web?force=true", undefined, { version: "1.7" })).status).toBe(400);
    expect((await s.call("DELETE", "/v1/clusters/web?force=true")).status).toBe(202);
  });

  it("keeps state across a restart in the middle of an action", async () => {
    await start();
    const { id, action: actionId } = await s.createCluster("web", { desired_capacity: 1 });
    t.clock.advance(1000);
    await t.close();
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    s = await senlinSession(t);
    expect((await cluster(id)).status).toBe("CREATING");
    t.clock.advance(2000);
    expect((await cluster(id)).status).toBe("ACTIVE");
    expect((await action(actionId)).status).toBe("SUCCEEDED");
  });

  it("accepts an old token after a restart", async () => {
    await start();
    const token = s.token;
    await t.close();
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    s = await senlinSession(t);
    expect(token).not.toBe(await issueTestToken(t));
    expect((await s.call("GET", "/v1/clusters", undefined, { token })).status).toBe(200);
  });
});
