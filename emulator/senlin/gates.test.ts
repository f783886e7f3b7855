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

  it("serves receivers, refuses notify on a webhook, and runs a webhook's action without a token (params from the body from 1.10)", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 1, max_size: 5 });
    t.clock.advance(5000);
    const created = await s.call("POST", "/v1/receivers", { receiver: { name: "up", type: "webhook", cluster_id: "web", action: "CLUSTER_SCALE_OUT", params: { count: 1 } } });
    expect(created.status).toBe(201);
    const receiver = (created.body as { receiver: { id: string; channel: { alarm_url: string } } }).receiver;
    // The params at creation ride along in the URL, for good.
    expect(receiver.channel.alarm_url).toBe(`${t.plane.url}/v1/webhooks/${receiver.id}/trigger?V=2&count=1`);
    expect((await s.call("POST", "/v1/receivers", { receiver: { name: "bad", type: "webhook", cluster_id: "web", action: "CLUSTER_DELETE" } })).body).toMatchObject({
      error: { message: "Illegal cluster action 'CLUSTER_DELETE' specified." },
    });
    expect((await s.call("POST", `/v1/receivers/${receiver.id}/notify`)).body).toMatchObject({ error: { message: "Notifying non-message receiver is not allowed." } });
    const trigger = await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, { params: { count: 2 } }, { token: null, version: "1.10" });
    expect(trigger.status).toBe(202);
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 3 } });
    // Before 1.10 the body's params are not read: the receiver's own count (1) applies.
    await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, { params: { count: 2 } }, { token: null, version: "1.9" });
    t.clock.advance(5000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).body).toMatchObject({ cluster: { desired_capacity: 4 } });
    expect((await s.call("PATCH", `/v1/receivers/${receiver.id}`, { receiver: { name: "upper" } })).body).toMatchObject({ receiver: { name: "upper" } });
    expect((await s.call("DELETE", `/v1/receivers/${receiver.id}`)).status).toBe(204);
    expect((await s.call("POST", `/v1/webhooks/${receiver.id}/trigger?V=2`, undefined, { token: null })).status).toBe(404);
  });
});
