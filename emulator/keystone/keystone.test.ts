import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { parseExtraUsers } from "./identity";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

function passwordBody(user: string, password: string, scope?: Record<string, unknown>) {
  return {
    auth: {
      identity: { methods: ["password"], password: { user: { name: user, domain: { name: "Default" }, password } } },
      ...(scope ? { scope } : {}),
    },
  };
}

const adminScope = { project: { name: "admin", domain: { name: "Default" } } };

async function post(body: unknown) {
  return fetch(`${t.plane.url}/v3/auth/tokens`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

describe("keystone v3 password tokens", () => {
  it("issues a project-scoped token with X-Subject-Token and a catalog naming this server as clustering", async () => {
    t = await startTestPlane();
    const response = await post(passwordBody("admin", "admin", adminScope));
    expect(response.status).toBe(201);
    expect(response.headers.get("x-subject-token")).toMatch(/^gAAAAA[A-Za-z0-9_-]{64}$/);
    const { token } = (await response.json()) as { token: Record<string, unknown> };
    expect(token).toMatchObject({
      methods: ["password"],
      user: { name: "admin", domain: { id: "default", name: "Default" } },
      project: { name: "admin", domain: { id: "default", name: "Default" } },
      issued_at: "2023-11-14T22:13:20.000000Z",
      expires_at: "2023-11-14T23:13:20.000000Z",
    });
    const catalog = token.catalog as { type: string; endpoints: { interface: string; region: string; url: string }[] }[];
    expect(catalog.map((s) => s.type)).toEqual(["clustering", "identity"]);
    expect(catalog[0].endpoints.map((e) => [e.interface, e.region, e.url])).toEqual([
      ["public", "RegionOne", t.plane.url],
      ["internal", "RegionOne", t.plane.url],
      ["admin", "RegionOne", t.plane.url],
    ]);
  });

  it.each([
    ["a wrong password", passwordBody("admin", "nope", adminScope), 401],
    ["an unknown user", passwordBody("ghost", "admin", adminScope), 401],
    ["a project the user is not in", passwordBody("admin", "admin", { project: { name: "other", domain: { name: "Default" } } }), 401],
    ["a user in another domain", { auth: { identity: { methods: ["password"], password: { user: { name: "admin", domain: { name: "Elsewhere" }, password: "admin" } } } } }, 401],
    ["a body without auth", { identity: {} }, 400],
    ["the token method only", { auth: { identity: { methods: ["token"], token: { id: "x" } } } }, 401],
  ])("refuses %s", async (_, body, status) => {
    t = await startTestPlane();
    const response = await post(body);
    expect(response.status).toBe(status);
    expect(response.headers.get("x-subject-token")).toBeNull();
    const error = ((await response.json()) as { error: { code: number; title: string } }).error;
    expect(error.code).toBe(status);
    expect(error.title).toBe(status === 401 ? "Unauthorized" : "Bad Request");
  });

  it("never echoes the password in an error", async () => {
    t = await startTestPlane();
    const text = await (await post(passwordBody("admin", "s3cret-value", adminScope))).text();
    expect(text).not.toContain("s3cret-value");
  });

  it("uses the configured user, project, domain and token lifetime", async () => {
    t = await startTestPlane({ platformOptions: { keystone: { user: "ops", password: "pw", project: "prod", domain: "Corp", tokenTtlSeconds: 60 } } });
    const body = {
      auth: {
        identity: { methods: ["password"], password: { user: { name: "ops", domain: { id: "corp" }, password: "pw" } } },
        scope: { project: { name: "prod", domain: { name: "Corp" } } },
      },
    };
    const response = await post(body);
    expect(response.status).toBe(201);
    const { token } = (await response.json()) as { token: { expires_at: string; project: { name: string } } };
    expect(token.project.name).toBe("prod");
    expect(token.expires_at).toBe("2023-11-14T22:14:20.000000Z");
    expect((await post(passwordBody("admin", "admin", adminScope))).status).toBe(401);
  });

  it("validates a token until it expires or is revoked", async () => {
    t = await startTestPlane({ platformOptions: { keystone: { tokenTtlSeconds: 10 } } });
    const issue = async () => (await post(passwordBody("admin", "admin", adminScope))).headers.get("x-subject-token") ?? "";
    const [caller, subject] = [await issue(), await issue()];
    const check = (method: string) =>
      fetch(`${t.plane.url}/v3/auth/tokens`, { method, headers: { "X-Auth-Token": caller, "X-Subject-Token": subject } });
    expect((await check("GET")).status).toBe(200);
    expect((await check("DELETE")).status).toBe(204);
    expect((await check("GET")).status).toBe(404);
    t.clock.advance(10_000);
    expect((await check("GET")).status).toBe(401);
  });

  it("audits token calls under api keystone without the password or token", async () => {
    t = await startTestPlane();
    await post(passwordBody("admin", "admin", adminScope));
    await post(passwordBody("admin", "wrong", adminScope));
    const audit = (await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] };
    expect(audit.entries.map((e) => [e.api, e.operation, e.code])).toEqual([
      ["keystone", "CreateToken", "OK"],
      ["keystone", "CreateToken", "UNAUTHENTICATED"],
    ]);
    expect(JSON.stringify(audit)).not.toContain("wrong");
  });
});

describe("keystone faults and version", () => {
  it("answers an error fault with the status of its code in Keystone's error body", async () => {
    t = await startTestPlane();
    await t.http("POST", "/_local/faults", { api: "keystone", operation: "CreateToken", action: "error", code: "UNAVAILABLE" });
    const response = await post(passwordBody("admin", "admin", adminScope));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 503, message: "simulated UNAVAILABLE fault", title: "Service Unavailable" } });
    expect((await post(passwordBody("admin", "admin", adminScope))).status).toBe(201);
  });

  it("describes v3 at /v3", async () => {
    t = await startTestPlane();
    const response = await t.http("GET", "/v3");
    expect(response).toMatchObject({ status: 200, body: { version: { id: "v3.14", status: "stable", links: [{ rel: "self", href: `${t.plane.url}/v3/` }] } } });
  });
});

describe("parseExtraUsers", () => {
  it.each([
    ["alice:pw:demo", [{ name: "alice", password: "pw", project: "demo", admin: false }]],
    ["bob:pw:ops:admin, carol:x:y", [{ name: "bob", password: "pw", project: "ops", admin: true }, { name: "carol", password: "x", project: "y", admin: false }]],
  ])("parses %j", (raw, expected) => {
    expect(parseExtraUsers(raw)).toEqual(expected);
  });

  it.each(["alice", "alice:pw", "a:b:c:root", "a:b:c:admin:x"])("rejects %j naming the expected form", (raw) => {
    expect(() => parseExtraUsers(raw)).toThrow(/expected name:password:project/);
  });
});
