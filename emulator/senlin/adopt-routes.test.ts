import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

const GATE = /^API version '1\.6' is not supported on this method/;

/** A plane with one ACTIVE orphan node (the server it made is what adoption can find). */
async function withServer(): Promise<{ physicalId: string; profileId: string }> {
  t = await startTestPlane({ platformOptions: { keystone: { extraUsers: [{ name: "alice", password: "pw", project: "demo", admin: false }] } } });
  s = await senlinSession(t);
  const profileId = await s.createProfile("p");
  await s.call("POST", "/v1/nodes", { node: { name: "n1", profile_id: "p" } });
  t.clock.advance(2000);
  const node = (await s.call("GET", "/v1/nodes/n1")).body as { node: { physical_id: string; status: string } };
  expect(node.node.status).toBe("ACTIVE");
  return { physicalId: node.node.physical_id, profileId };
}

describe("node adopt and adopt-preview (1.7)", () => {
  it("previews the spec of a known server, overrides applied, doubly wrapped as the controller answers; 400 below 1.7", async () => {
    const { physicalId } = await withServer();
    const body = { identity: physicalId, type: "os.nova.server-1.0", overrides: { image: "debian-12" } };
    expect((await s.call("POST", "/v1/nodes/adopt-preview", body, { version: "1.6" })).body).toMatchObject({ error: { type: "MethodVersionNotFound", message: expect.stringMatching(GATE) } });
    const preview = await s.call("POST", "/v1/nodes/adopt-preview", body, { version: "1.7" });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ node_profile: { node_preview: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "debian-12" } } } });
    expect(((await s.call("GET", "/v1/profiles")).body as { profiles: unknown[] }).profiles).toHaveLength(1);
  });

  it("adopts: a profile prof-<name> and an ACTIVE orphan node on the physical id, 200 without an action", async () => {
    const { physicalId } = await withServer();
    const adopt = await s.call("POST", "/v1/nodes/adopt", { identity: physicalId, type: "os.nova.server-1.0", name: "kept", metadata: { k: "v" }, role: null });
    expect(adopt.status).toBe(200);
    expect(adopt.headers.get("location")).toBeNull();
    const node = (adopt.body as { node: Record<string, unknown> }).node;
    expect(node).toMatchObject({ name: "kept", cluster_id: "", index: -1, status: "ACTIVE", status_reason: "Node adopted successfully", physical_id: physicalId, metadata: { k: "v" } });
    const profile = ((await s.call("GET", `/v1/profiles/${node.profile_id}`)).body as { profile: { name: string; spec: unknown } }).profile;
    expect(profile).toMatchObject({ name: "prof-kept", spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } });
    const unnamed = (await s.call("POST", "/v1/nodes/adopt", { identity: physicalId, type: "os.nova.server-1.0" })).body as { node: { name: string } };
    expect(unnamed.node.name).toMatch(/^node-[A-Za-z0-9]{8}$/);
  });

  it.each([
    ["an unknown profile type", { identity: "x", type: "os.nova.server-9.9" }, 400, "The profile_type 'os.nova.server-9.9' could not be found."],
    ["a server the cloud does not have", { identity: "no-such-server", type: "os.nova.server-1.0" }, 500, "404: The server (no-such-server) could not be found."],
    ["a missing identity", { type: "os.nova.server-1.0" }, 400, "'identity' is a required property"],
    ["an unknown field", { identity: "x", type: "os.nova.server-1.0", cluster: "c" }, 400, "Additional properties are not allowed ('cluster' was unexpected)"],
  ])("refuses %s", async (_, body, status, message) => {
    await withServer();
    const response = await s.call("POST", "/v1/nodes/adopt", body);
    expect(response.status).toBe(status);
    expect((response.body as { error: { message: string } }).error.message).toContain(message);
    expect(((await s.call("GET", "/v1/nodes")).body as { nodes: unknown[] }).nodes).toHaveLength(1);
  });
});

describe("services", () => {
  it("lists the engine's services to an admin, and refuses others with 403", async () => {
    await withServer();
    const listed = await s.call("GET", "/v1/services");
    expect(listed.status).toBe(200);
    const services = (listed.body as { services: { binary: string; state: string; status: string; topic: string }[] }).services;
    expect(services.map((x) => [x.binary, x.state, x.status])).toEqual([
      ["senlin-conductor", "up", "enabled"],
      ["senlin-engine", "up", "enabled"],
      ["senlin-health-manager", "up", "enabled"],
    ]);
    const alice = await senlinSession(t, "alice", "pw", "demo");
    expect((await alice.call("GET", "/v1/services")).body).toMatchObject({ code: 403, error: { type: "Forbidden" } });
  });
});
