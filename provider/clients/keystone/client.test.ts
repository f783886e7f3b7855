import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { type FakeTime, fakeTime } from "../../core/testing";
import { findEndpoint, parseCatalog } from "./catalog";
import { clearKeystoneTokenCache, createKeystoneClient, identityBase, type KeystoneClientOptions } from "./client";

afterAll(removeDataDirs);

let t: TestPlane;
let time: FakeTime;
beforeEach(() => {
  clearKeystoneTokenCache();
  time = fakeTime();
});
afterEach(async () => {
  await t?.close();
});

const audit = async () =>
  ((await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] }).entries.filter((e) => e.api === "keystone");

function client(extra: Partial<KeystoneClientOptions> = {}) {
  return createKeystoneClient({
    authUrl: t.plane.url,
    username: "admin",
    password: "admin",
    projectName: "admin",
    clock: time.now,
    sleep: time.sleep,
    ...extra,
  });
}

describe("keystone client against the emulator", () => {
  it("authenticates once per process and finds the clustering endpoint in the catalog", async () => {
    t = await startTestPlane();
    const first = client();
    const session = await first.session();
    expect(session.token).toMatch(/^gAAAAA/);
    expect(session.projectId).toMatch(/^[0-9a-f]{32}$/);
    expect(await first.endpoint("clustering")).toBe(t.plane.url);
    expect(await client().endpoint("identity", { interface: "internal", region: "RegionOne" })).toBe(`${t.plane.url}/v3`);
    expect(await client({ authUrl: `${t.plane.url}/v3/` }).headers(new Deadline(5_000, time.now))).toEqual({ "X-Auth-Token": session.token });
    expect((await audit()).map((e) => e.operation)).toEqual(["CreateToken"]);
  });

  it("renews a token a minute before it expires, measuring its lifetime on the server's timestamps", async () => {
    t = await startTestPlane({ platformOptions: { keystone: { tokenTtlSeconds: 600 } } });
    const c = client();
    const first = (await c.session()).token;
    time.nowMs += 539_000;
    expect((await c.session()).token).toBe(first);
    time.nowMs += 1_000;
    expect((await c.session()).token).not.toBe(first);
    expect(await audit()).toHaveLength(2);
  });

  it("authenticates afresh after invalidate (a 401 from the service)", async () => {
    t = await startTestPlane();
    const c = client();
    const first = (await c.session()).token;
    c.invalidate();
    expect((await c.session()).token).not.toBe(first);
  });

  it("shares one in-flight authentication between concurrent callers", async () => {
    t = await startTestPlane();
    const tokens = await Promise.all([client().session(), client().session(), client().session()]);
    expect(new Set(tokens.map((s) => s.token)).size).toBe(1);
    expect(await audit()).toHaveLength(1);
  });

  it("fails with Unauthenticated naming the user and project, never the password", async () => {
    t = await startTestPlane();
    const error = await client({ password: "wrong-pass" }).session().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterformError);
    expect(error).toMatchObject({
      code: "Unauthenticated",
      message: `authenticating user "admin" in project "admin" at ${t.plane.url}/v3: HTTP 401: The request you have made requires authentication.`,
    });
    expect(JSON.stringify(error)).not.toContain("wrong-pass");
    expect(String((error as Error).stack)).not.toContain("wrong-pass");
  });

  it("keys the cache by project: another project gets its own token", async () => {
    t = await startTestPlane({ platformOptions: { keystone: { extraUsers: [{ name: "admin2", password: "pw", project: "demo", admin: false }] } } });
    const a = await client().session();
    const b = await client({ username: "admin2", password: "pw", projectName: "demo" }).session();
    expect(a.token).not.toBe(b.token);
    expect(a.projectId).not.toBe(b.projectId);
  });
});

describe("catalog", () => {
  const catalog = parseCatalog([
    {
      type: "clustering",
      name: "senlin",
      endpoints: [
        { interface: "public", region_id: "One", url: "http://one:8777/" },
        { interface: "internal", region_id: "One", url: "http://one-int:8777" },
        { interface: "public", region: "Two", url: "http://two:8777" },
      ],
    },
  ]);

  it.each([
    [{}, "http://one:8777"],
    [{ region: "Two" }, "http://two:8777"],
    [{ interface: "internal" }, "http://one-int:8777"],
  ])("picks the endpoint for %j", (filter, url) => {
    expect(findEndpoint(catalog, "clustering", filter)).toBe(url);
  });

  it("names what the catalog has when nothing matches", () => {
    expect(() => findEndpoint(catalog, "clustering", { region: "Three" })).toThrow(
      'finding the "clustering" endpoint in the Keystone catalog: NO_ENDPOINT: no public endpoint in region "Three"; the catalog has: public in One, internal in One, public in Two',
    );
    expect(() => findEndpoint(catalog, "compute")).toThrow('the catalog has no "compute" service');
  });

  it.each([
    ["http://k:5000", "http://k:5000/v3"],
    ["http://k:5000/", "http://k:5000/v3"],
    ["http://k:5000/v3/", "http://k:5000/v3"],
    ["http://k/identity/v3", "http://k/identity/v3"],
  ])("normalizes the auth URL %s", (raw, expected) => {
    expect(identityBase(raw)).toBe(expected);
  });
});
