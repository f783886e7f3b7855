import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

const GATE = /^API version '1\.\d+' is not supported on this method/;
const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } };

describe("the routes real Senlin's router serves beyond the everyday ones, with their microversion gates", () => {
  it("answers discovery without a token: 300 at the root, 200 at /v1", async () => {
    t = await startTestPlane({ platformOptions: { senlin: { maxMicroversion: "1.9" } } });
    const root = await t.http("GET", "/");
    expect(root.status).toBe(300);
    expect(root.body).toMatchObject({ versions: [{ id: "1.0", min_version: "1.0", max_version: "1.9", links: [{ rel: "self", href: `${t.plane.url}/v1` }, { rel: "help" }] }] });
    expect((await t.http("GET", "/v1/")).body).toMatchObject({ version: { id: "1.0", max_version: "1.9" } });
    expect((await t.http("GET", "/v1/clusters")).status).toBe(401);
  });

  it("gates validate (1.2), profile type ops (1.4), node ops (1.4) and type details (1.5)", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const validate = (version: string) => s.call("POST", "/v1/profiles/validate", { profile: { spec: SPEC } }, { version });
    expect((await validate("1.1")).body).toMatchObject({ error: { type: "MethodVersionNotFound", message: expect.stringMatching(GATE) } });
    expect(await validate("1.2")).toMatchObject({ status: 200, body: { profile: { type: "os.nova.server-1.0", id: null } } });
    expect((await s.call("GET", "/v1/profile-types/os.nova.server-1.0/ops", undefined, { version: "1.3" })).status).toBe(400);
    expect((await s.call("GET", "/v1/profile-types/os.nova.server-1.0/ops", undefined, { version: "1.4" })).body).toMatchObject({ operations: { reboot: {} } });
    expect((await s.call("GET", "/v1/policy-types", undefined, { version: "1.4" })).body).toMatchObject({ policy_types: expect.arrayContaining([{ name: "senlin.policy.deletion-1.0" }]) });
    expect((await s.call("GET", "/v1/policy-types", undefined, { version: "1.5" })).body).toMatchObject({
      policy_types: expect.arrayContaining([{ name: "senlin.policy.deletion", version: "1.0", support_status: { "1.0": [{ status: "SUPPORTED", since: "2016.04" }] } }]),
    });
    expect((await s.call("GET", "/v1/profile-types/no.such-1.0")).status).toBe(404);
    await s.createProfile("p");
    const node = await s.call("POST", "/v1/nodes", { node: { name: "n", profile_id: "p" } });
    expect(node.status).toBe(202);
    t.clock.advance(3000);
    expect((await s.call("POST", "/v1/nodes/n/ops", { reboot: {} }, { version: "1.3" })).status).toBe(400);
    expect((await s.call("POST", "/v1/nodes/n/ops", { hibernate: {} })).body).toMatchObject({ error: { message: "The requested operation 'hibernate' is not supported by the profile type 'os.nova.server-1.0'." } });
    const reboot = await s.call("POST", "/v1/nodes/n/ops", { reboot: {} });
    expect(reboot.status).toBe(202);
    expect(reboot.headers.get("location")).toBe(`${t.plane.url}/v1/actions/${(reboot.body as { action: string }).action}`);
  });

  it("updates a node (202, then the change once the action ends) and runs node check and recover", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createProfile("p");
    await s.call("POST", "/v1/nodes", { node: { name: "n", profile_id: "p" } });
    t.clock.advance(3000);
    const updated = await s.call("PATCH", "/v1/nodes/n", { node: { name: "m", role: "db", metadata: null } });
    expect(updated).toMatchObject({ status: 202, body: { node: { name: "n" } } });
    expect((await s.call("GET", "/v1/nodes/n")).body).toMatchObject({ node: { status: "UPDATING" } });
    t.clock.advance(2000);
    expect((await s.call("GET", "/v1/nodes/m")).body).toMatchObject({ node: { name: "m", role: "db", status: "ACTIVE" } });
    expect((await s.call("PATCH", "/v1/nodes/m", { node: { name: "m" } })).body).toMatchObject({ error: { message: "No property needs an update." } });
    expect((await s.call("PATCH", "/v1/nodes/m", { node: { colour: "red" } })).body).toMatchObject({ error: { message: "Additional properties are not allowed ('colour' was unexpected)" } });
    expect((await s.call("POST", "/v1/nodes/m/actions", { check: {}, recover: {} })).body).toMatchObject({ error: { message: "Multiple actions specified." } });
    expect((await s.call("POST", "/v1/nodes/m/actions", { check: {} })).status).toBe(202);
    t.clock.advance(1000);
    expect((await s.call("POST", "/v1/nodes/m/actions", { recover: { operation: "EXPLODE" } })).status).toBe(400);
    expect((await s.call("POST", "/v1/nodes/m/actions", { recover: { operation: "REBOOT" } })).status).toBe(202);
    expect((await s.call("GET", "/v1/nodes/m")).body).toMatchObject({ node: { status: "RECOVERING" } });
  });

  it("serves receivers, refuses notify on a webhook, and runs a webhook's action without a token (params from the body's keys from 1.10)", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 1, max_size: 5 });
    t.clock.advance(5000);
    const created = await s.call("POST", "/v1/receivers", { receiver: { name: "up", type: "webhook", cluster_id: "web", action: "CLUSTER_SCALE_OUT", params: { count: 1 } } });
    expect(created.status).toBe(201);
    const receiver = (created.body as { receiver: { id: string; channel: { alarm_url: string } } }).receiver;
    // The params at creation ride along in the URL, for good.
    expect(receiver.channel.alarm_url).toBe(`${t.plane.url}/v1/webhooks/${receiver.id}/trigger?V=2&count=1`);
    expect((await s.call("POST", `/v1/receivers/${receiver.id}/notify`)).body).toMatchObject({ error: { message: "Notifying non-message receiver is not allowed." } });
    const trigger = await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, { count: 2 }, { token: null, version: "1.10" });
    expect(trigger.status).toBe(202);
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 3 } });
    // Before 1.10 a V=2 URL reads the body's keys too: a `params` key is not one the action knows, so the receiver's own count (1) applies.
    await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, { params: { count: 2 } }, { token: null, version: "1.9" });
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 4 } });
    expect((await s.call("PATCH", `/v1/receivers/${receiver.id}`, { receiver: { name: "upper" } })).body).toMatchObject({ receiver: { name: "upper" } });
    expect((await s.call("DELETE", `/v1/receivers/${receiver.id}`)).status).toBe(204);
    expect((await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, undefined, { token: null })).status).toBe(404);
  });
});

describe("receivers as Senlin 14's receiver_create, receiver_update and webhook_trigger have them", () => {
  const receiverOf = (r: { body: unknown }) => (r.body as { receiver: { id: string; action: string; params: Record<string, unknown>; channel: { alarm_url: string } } }).receiver;
  const errorOf = (r: { status: number; body: unknown }) => [r.status, (r.body as { error?: { message?: string } }).error?.message];

  it("takes any cluster action but CLUSTER_CREATE, requires one for a webhook, and refuses a cluster that does not exist with 400", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createCluster("web", { desired_capacity: 0 });
    const make = (receiver: Record<string, unknown>) => s.call("POST", "/v1/receivers", { receiver: { name: "r", type: "webhook", cluster_id: "web", ...receiver } });
    expect(receiverOf(await make({ action: "CLUSTER_DELETE" })).action).toBe("CLUSTER_DELETE");
    expect(receiverOf(await make({ action: "CLUSTER_ADD_NODES" })).action).toBe("CLUSTER_ADD_NODES");
    expect(errorOf(await make({ action: "CLUSTER_CREATE" }))).toEqual([400, "Action name cannot be any of ['CLUSTER_CREATE']."]);
    expect(errorOf(await make({}))).toEqual([400, "Action name is required for creating webhook receiver."]);
    expect(errorOf(await make({ action: "CLUSTER_FLY" }))).toEqual([400, "Value 'CLUSTER_FLY' is not acceptable for field 'action'."]);
    expect(errorOf(await make({ action: "CLUSTER_SCALE_IN", cluster_id: "nowhere" }))).toEqual([400, "The referenced cluster 'nowhere' could not be found."]);
    // An update takes any action name Senlin knows: receiver_update checks only the enum.
    const id = receiverOf(await make({ action: "CLUSTER_CHECK" })).id;
    expect(receiverOf(await s.call("PATCH", `/v1/receivers/${id}`, { receiver: { action: "CLUSTER_CREATE" } })).action).toBe("CLUSTER_CREATE");
  });

  it("sorts the params in the URL, reads no query parameter but V, and runs the params the receiver has now", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 1, max_size: 10 });
    t.clock.advance(5000);
    const created = receiverOf(
      await s.call("POST", "/v1/receivers", { receiver: { name: "r", type: "webhook", cluster_id: "web", action: "CLUSTER_RESIZE", params: { number: 2, adjustment_type: "CHANGE_IN_CAPACITY", strict: true } } }),
    );
    expect(created.channel.alarm_url).toBe(`${t.plane.url}/v1/webhooks/${created.id}/trigger?V=2&adjustment_type=CHANGE_IN_CAPACITY&number=2&strict=True`);
    expect(errorOf(await s.call("POST", `/v1/webhooks/${created.id}/trigger`, undefined, { token: null }))).toEqual([400, "V query parameter is required in webhook trigger URL"]);
    // The query's number (9) is not read: the receiver's (2) is.
    expect((await s.call("POST", `/v1/webhooks/${created.id}/trigger?V=2&number=9`, undefined, { token: null })).status).toBe(202);
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 3 } });
    // New params in place: the URL stays, and a POST to it runs the new ones.
    const updated = receiverOf(await s.call("PATCH", `/v1/receivers/${created.id}`, { receiver: { params: { adjustment_type: "CHANGE_IN_CAPACITY", number: -1 } } }));
    expect(updated.channel.alarm_url).toBe(created.channel.alarm_url);
    expect((await s.call("POST", created.channel.alarm_url.slice(t.plane.url.length), undefined, { token: null })).status).toBe(202);
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 2 } });
    // A V=1 URL reads the body's `params` before 1.10.
    expect((await s.call("POST", `/v1/webhooks/${created.id}/trigger?V=1`, { params: { number: 3 } }, { token: null, version: "1.9" })).status).toBe(202);
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 5 } });
  });

  it("deletes a cluster's receivers with the cluster", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 0 });
    t.clock.advance(5000);
    const hook = receiverOf(await s.call("POST", "/v1/receivers", { receiver: { name: "r", type: "webhook", cluster_id: "web", action: "CLUSTER_SCALE_OUT" } }));
    expect((await s.call("DELETE", `/v1/clusters/${id}`)).status).toBe(202);
    expect((await s.call("GET", `/v1/receivers/${hook.id}`)).status).toBe(404);
  });
});
