import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { ClusterformError } from "../../core/errors";
import { type FakeTime, fakeTime } from "../../core/testing";
import { clearKeystoneTokenCache } from "../keystone/client";
import { createRestCaller } from "../shared/rest-caller";
import { createSenlinClient, type SenlinClient, type SenlinClientOptions, senlinBase } from "./client";
import { discoverSenlin } from "./discovery";
import { createSenlinTransport } from "./transport";

afterAll(removeDataDirs);

let t: TestPlane;
let time: FakeTime;
let senlin: SenlinClient;

function client(extra: Partial<SenlinClientOptions> = {}): SenlinClient {
  return createSenlinClient({
    credentials: { authUrl: `${t.plane.url}/v3`, username: "admin", password: "admin", projectName: "admin" },
    sleep: time.sleep,
    clock: time.now,
    random: () => 0.999_999,
    ...extra,
  });
}

async function start(options: Parameters<typeof startTestPlane>[0] = {}): Promise<void> {
  t = await startTestPlane(options);
  senlin = client();
}

beforeEach(() => {
  clearKeystoneTokenCache();
  time = fakeTime();
});
afterEach(async () => {
  await t?.close();
});

const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } };

const senlinAudit = async () =>
  ((await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] }).entries
    .filter((e) => e.api !== "cmassh")
    .map((e) => `${e.api}:${e.operation}:${e.code}`);

/** A plane with profile `small` and cluster `web` (2 nodes, 1..4) ACTIVE. */
async function activeCluster(options: Parameters<typeof startTestPlane>[0] = {}): Promise<string> {
  await start(options);
  await senlin.createProfile("small", SPEC);
  const { value } = await senlin.createCluster({ name: "web", profileId: "small", desiredCapacity: 2, minSize: 1, maxSize: 4 });
  t.clock.advance(3000);
  return value.id;
}

describe("senlin client against the emulator", () => {
  it("creates a cluster, follows its action and reads it ACTIVE, through the catalog's endpoint", async () => {
    await start();
    expect(await senlin.baseUrl()).toBe(`${t.plane.url}/v1`);
    const profile = await senlin.createProfile("small", SPEC, { owner: "team-a" });
    expect(profile).toMatchObject({ name: "small", type: "os.nova.server-1.0", metadata: { owner: "team-a" } });
    const created = await senlin.createCluster({ name: "web", profileId: "small", desiredCapacity: 2, maxSize: 4, metadata: { env: "test" } });
    expect(created.value).toMatchObject({ name: "web", status: "INIT", statusReason: "Initializing", profileId: profile.id, desiredCapacity: 2, minSize: 0, maxSize: 4 });
    expect(await senlin.getAction(created.actionId)).toMatchObject({ action: "CLUSTER_CREATE", status: "RUNNING", target: created.value.id, endTime: null });
    t.clock.advance(3000);
    expect(await senlin.getAction(created.actionId)).toMatchObject({ status: "SUCCEEDED", startTime: 1_700_000_000, endTime: 1_700_000_003 });
    const cluster = await senlin.getCluster("web");
    expect(cluster).toMatchObject({ status: "ACTIVE", metadata: { env: "test" }, createdAt: "2023-11-14T22:13:23Z" });
    expect(cluster.nodes).toHaveLength(2);
    const nodes = await senlin.listNodes({ filters: { cluster_id: "web" } });
    expect(nodes.map((n) => [n.clusterId, n.status])).toEqual([
      [cluster.id, "ACTIVE"],
      [cluster.id, "ACTIVE"],
    ]);
    expect((await senlin.listClusters({ filters: { status: "ACTIVE" } })).map((c) => c.name)).toEqual(["web"]);
  });

  it("resizes, scales and runs node and policy actions, each answering its action id", async () => {
    const clusterId = await activeCluster();
    const resize = await senlin.resizeCluster("web", { adjustmentType: "EXACT_CAPACITY", number: 3 });
    expect(await senlin.getCluster("web")).toMatchObject({ status: "RESIZING", desiredCapacity: 3 });
    t.clock.advance(2000);
    expect((await senlin.getAction(resize)).status).toBe("SUCCEEDED");
    await senlin.scaleIn("web", 1);
    t.clock.advance(1500);
    await senlin.scaleOut("web");
    t.clock.advance(2000);
    expect(await senlin.getCluster("web")).toMatchObject({ status: "ACTIVE", desiredCapacity: 3 });
    const policy = await senlin.createPolicy("deletion", { type: "senlin.policy.deletion", version: "1.1", properties: {} });
    await senlin.attachPolicy("web", "deletion", true);
    t.clock.advance(500);
    // The cluster lists its bindings' ids (as Senlin does); the binding names the policy.
    const [binding] = await senlin.listClusterPolicies("web");
    expect(binding.policyId).toBe(policy.id);
    expect((await senlin.getCluster("web")).policies).toEqual([binding.id]);
    await senlin.updateClusterPolicy("web", policy.id, false);
    t.clock.advance(500);
    expect(await senlin.getClusterPolicy("web", "deletion")).toMatchObject({ policyId: policy.id, clusterName: "web", enabled: false, policyType: "senlin.policy.deletion-1.1" });
    expect((await senlin.listClusterPolicies("web")).map((b) => b.policyName)).toEqual(["deletion"]);
    expect((await senlin.updatePolicy("deletion", { name: "del" })).name).toBe("del");
    await senlin.detachPolicy("web", "del");
    t.clock.advance(500);
    await expect(senlin.getClusterPolicy("web", "del")).rejects.toMatchObject({ code: "NotFound" });
    expect((await senlin.updateProfile("small", { metadata: { tier: "gold" } })).metadata).toEqual({ tier: "gold" });
    const [first] = (await senlin.getCluster("web")).nodes;
    const attrs = await senlin.collectAttributes("web", "status");
    expect(attrs.map((a) => a.value)).toEqual(["ACTIVE", "ACTIVE", "ACTIVE"]);
    await senlin.delNodes("web", [first], { destroyAfterDeletion: true });
    t.clock.advance(1000);
    await expect(senlin.getNode(first)).rejects.toMatchObject({ code: "NotFound" });
    const check = await senlin.checkCluster("web");
    t.clock.advance(1000);
    const recover = await senlin.recoverCluster("web", { operation: "REBOOT", check: true });
    t.clock.advance(2000);
    expect([(await senlin.getAction(check)).action, (await senlin.getAction(recover)).action]).toEqual(["CLUSTER_CHECK", "CLUSTER_RECOVER"]);
    const ops = await senlin.performOperation("web", "reboot", { params: { type: "SOFT" } });
    t.clock.advance(1000);
    expect((await senlin.listActions({ filters: { cluster_id: clusterId } })).map((a) => a.id)).toContain(ops);
  });

  it("adds an orphan node, replaces a member, deletes the cluster and the replaced node", async () => {
    await activeCluster();
    const orphan = await senlin.createNode({ name: "spare", profileId: "small" });
    expect(orphan.value).toMatchObject({ name: "spare", status: "INIT", clusterId: "" });
    t.clock.advance(2000);
    const [member] = (await senlin.getCluster("web")).nodes;
    await senlin.replaceNodes("web", { [member]: "spare" });
    t.clock.advance(2000);
    expect((await senlin.getCluster("web")).nodes).toContain(orphan.value.id);
    const deleted = await senlin.deleteCluster("web");
    expect(deleted.notFoundOnRetry).toBe(false);
    t.clock.advance(2000);
    expect((await senlin.getAction(deleted.actionId)).status).toBe("SUCCEEDED");
    const error = await senlin.getCluster("web").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NotFound", message: `GetCluster cluster "web": HTTP 404: The cluster 'web' could not be found.` });
    const removed = await senlin.deleteNode(member);
    expect(removed).toEqual({ actionId: expect.stringMatching(/^[0-9a-f-]{36}$/), notFoundOnRetry: false });
    t.clock.advance(1000);
    expect(await senlin.listNodes()).toEqual([]);
  });

  it("cancels a running action", async () => {
    await activeCluster();
    const resize = await senlin.resizeCluster("web", { adjustmentType: "CHANGE_IN_CAPACITY", number: 1 });
    await senlin.cancelAction(resize);
    expect((await senlin.getAction(resize)).status).toBe("CANCELLED");
    await expect(senlin.cancelAction(resize)).rejects.toMatchObject({ code: "Conflict", platformCode: "HTTP 409" });
  });

  it("reports a 409 as Conflict with Senlin's message", async () => {
    await activeCluster();
    await senlin.scaleOut("web", 1);
    const error = await senlin.scaleOut("web", 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterformError);
    expect(error).toMatchObject({ code: "Conflict", platformCode: "HTTP 409" });
    expect((error as Error).message).toMatch(/^ScaleOutCluster cluster "web": HTTP 409: The CLUSTER_SCALE_OUT action for target .* conflicts with the following action\(s\): /);
  });

  it("reads the server's newest microversion from its version document and refuses a newer call before sending it", async () => {
    await activeCluster({ platformOptions: { senlin: { maxMicroversion: "1.2" } } });
    expect(await senlin.collectAttributes("web", "name")).toHaveLength(2);
    const error = await senlin.replaceNodes("web", { a: "b" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "FailedPrecondition",
      message: 'ReplaceNodes cluster "web": MICROVERSION: this call needs Senlin API microversion 1.3, but the server supports at most 1.2 (its version document\'s max_version)',
    });
    expect((await senlinAudit()).filter((e) => e.includes("Replace"))).toEqual([]);
  });

  it("says which microversion a call needs when a server without max_version refuses it (406)", async () => {
    await activeCluster({ platformOptions: { senlin: { maxMicroversion: "1.2" } } });
    // The endpoint's own document is missing here (a proxy that serves only /v1/...): no max_version is known.
    const noDocument: typeof fetch = async () => new Response("not found", { status: 404 });
    const transport = createSenlinTransport(
      createRestCaller({ baseUrl: `${t.plane.url}/v1`, auth: senlin.keystone, sleep: time.sleep, clock: time.now }),
      async () => (await discoverSenlin(`${t.plane.url}/v1`, 1000, noDocument)).maxVersion,
    );
    const error = await transport
      .call("write", 'ReplaceNodes cluster "web"', { method: "POST", path: "/clusters/web/actions", body: { replace_nodes: { a: "b" } } }, "1.3")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "FailedPrecondition",
      message:
        "ReplaceNodes cluster \"web\": HTTP 406: this call needs Senlin API microversion 1.3, but the server supports at most 1.2 (Version '1.3' is not supported by the API. Minimum is '1.0' and maximum is '1.2'.)",
    });
  });

  it("reads the version document again after a transient failure of it, then remembers it", async () => {
    await start();
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "ListVersions", action: "error", code: "UNAVAILABLE", count: 1 });
    expect(await senlin.listClusters()).toEqual([]);
    await senlin.listClusters();
    await senlin.listClusters();
    // The first call looks twice (for the URL, then for the microversion limit); later calls not at all.
    expect((await senlinAudit()).filter((e) => e.startsWith("senlin:"))).toEqual([
      "senlin:ListVersions:UNAVAILABLE",
      "senlin:ListVersions:OK",
      "senlin:ListClusters:OK",
      "senlin:ListClusters:OK",
      "senlin:ListClusters:OK",
    ]);
  });

  it("discovers v1 through the catalog's unversioned URL, reading the version document once", async () => {
    await start();
    expect((await t.http("GET", "/_local/audit")).text).not.toContain("ListVersions");
    await senlin.listClusters();
    await senlin.listProfiles();
    expect((await senlinAudit()).filter((e) => e.startsWith("senlin:"))).toEqual(["senlin:ListVersions:OK", "senlin:ListClusters:OK", "senlin:ListProfiles:OK"]);
  });

  it("re-authenticates once when the token is refused, and retries reads through transient faults", async () => {
    await activeCluster();
    const token = (await senlin.keystone.session()).token;
    await fetch(`${t.plane.url}/v3/auth/tokens`, { method: "DELETE", headers: { "X-Auth-Token": token, "X-Subject-Token": token } });
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "GetCluster", action: "error", code: "UNAVAILABLE", count: 2 });
    expect((await senlin.getCluster("web")).status).toBe("ACTIVE");
    expect(time.sleeps).toEqual([100, 200]);
    expect((await senlinAudit()).slice(-5)).toEqual([
      "senlin:GetCluster:UNAVAILABLE",
      "senlin:GetCluster:UNAVAILABLE",
      "senlin:GetCluster:UNAUTHENTICATED",
      "keystone:CreateToken:OK",
      "senlin:GetCluster:OK",
    ]);
  });

  it("does not retry an action on a transient fault", async () => {
    await activeCluster();
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "ResizeCluster", action: "error", code: "UNAVAILABLE" });
    await expect(senlin.resizeCluster("web", { adjustmentType: "CHANGE_IN_CAPACITY", number: 1 })).rejects.toMatchObject({ code: "Unavailable" });
    expect((await senlinAudit()).filter((e) => e.startsWith("senlin:Resize"))).toEqual(["senlin:ResizeCluster:UNAVAILABLE"]);
  });

  it("fails with Unauthenticated for a wrong password, keeps the password out of the error and sends Senlin nothing", async () => {
    await start();
    const bad = client({ credentials: { authUrl: t.plane.url, username: "admin", password: "n0t-the-password", projectName: "admin" } });
    const error = await bad.listClusters().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "Unauthenticated" });
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain("n0t-the-password");
    // Keystone refused the token; no Senlin call went out without one.
    expect(await senlinAudit()).toEqual(["keystone:CreateToken:UNAUTHENTICATED"]);
  });

  it("uses an endpoint override instead of the catalog", async () => {
    await start();
    const direct = client({ endpoint: `${t.plane.url}/` });
    expect(await direct.baseUrl()).toBe(`${t.plane.url}/v1`);
    expect(await direct.listClusters()).toEqual([]);
  });
});

describe("discoverSenlin", () => {
  const answer = (status: number, body: unknown): typeof fetch => async () => new Response(JSON.stringify(body), { status });
  const v1 = { id: "1.0", status: "CURRENT", links: [{ rel: "self", href: "http://10.0.0.5:8778/cluster/v1" }], min_version: "1.0", max_version: "1.14" };

  it("takes v1's path and max_version from the root's version list, on the catalog's origin", async () => {
    expect(await discoverSenlin("http://cloud.example/cluster", 1000, answer(300, { versions: [v1] }))).toEqual({
      baseUrl: "http://cloud.example/cluster/v1",
      maxVersion: "1.14",
    });
  });

  it("reads a versioned URL's own document", async () => {
    expect(await discoverSenlin("http://h:8778/v1/", 1000, answer(200, { version: { ...v1, max_version: "1.10" } }))).toEqual({ baseUrl: "http://h:8778/cluster/v1", maxVersion: "1.10" });
  });

  it.each([
    ["a 404", answer(404, {})],
    ["a body without versions", answer(200, { hello: "world" })],
  ])("falls back to the URL with /v1 on %s, with no microversion limit", async (_what, doFetch) => {
    expect(await discoverSenlin("http://h:8778", 1000, doFetch)).toEqual({ baseUrl: "http://h:8778/v1" });
  });

  it.each([
    ["a 503", answer(503, {})],
    ["a network failure", (async () => Promise.reject(new TypeError("fetch failed"))) as typeof fetch],
  ])("falls back on %s, marked transient so the client looks again", async (_what, doFetch) => {
    expect(await discoverSenlin("http://h:8778", 1000, doFetch)).toEqual({ baseUrl: "http://h:8778/v1", transient: true });
  });
});

describe("senlinBase", () => {
  it.each([
    ["http://h:8777", "http://h:8777/v1"],
    ["http://h:8777/", "http://h:8777/v1"],
    ["http://h/clustering/v1/", "http://h/clustering/v1"],
  ])("%s -> %s", (endpoint, expected) => {
    expect(senlinBase(endpoint)).toBe(expected);
  });
});
