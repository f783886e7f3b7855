import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../cli-args";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { basicAuth } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

const encode = (s: string) => Buffer.from(s).toString("base64");

describe("HTTP Basic authentication", () => {
  it.each([
    ["no Authorization header", {}, 401],
    ["a wrong password", { Authorization: `Basic ${encode("admin:nope")}` }, 401],
    ["a wrong user", { Authorization: `Basic ${encode("root:admin")}` }, 401],
    ["no colon in the credentials", { Authorization: `Basic ${encode("adminadmin")}` }, 401],
    ["a bearer token", { Authorization: "Bearer admin" }, 401],
    ["the right credentials", basicAuth(), 200],
    ["the right credentials, lower-case scheme", { Authorization: `basic ${encode("admin:admin")}` }, 200],
  ])("answers %s with %i", async (_label, headers, status) => {
    t = await startTestPlane();
    const response = await fetch(`${t.plane.url}/clusters/demo/status`, { headers });
    expect(response.status).toBe(status);
    expect(response.headers.get("www-authenticate")).toBe(status === 401 ? 'Basic realm="CycleCloud"' : null);
  });

  it.each([
    ["GET", "/clusters/demo/nodes"],
    ["POST", "/clusters/demo/nodes/create"],
    ["POST", "/clusters/demo/nodes/terminate"],
    ["POST", "/clusters/demo/scale/execute?totalNodeCount=1"],
    ["GET", "/clusters/demo/usage"],
    ["GET", "/clusters/ghost/status"],
    ["GET", "/operations/"],
    ["GET", "/operations/some-id"],
  ])("refuses %s %s without credentials, before anything else, and does not audit it", async (method, path) => {
    t = await startTestPlane();
    const body = method === "POST" ? { sets: [{ nodearray: "execute", count: 1 }], names: ["execute-1"] } : undefined;
    const response = await t.http(method, path, body);
    expect(response).toMatchObject({ status: 401, text: "authentication required: send HTTP Basic credentials\n" });
    expect((await t.http("GET", "/_local/audit")).body).toMatchObject({ entries: [] });
    expect((await t.http("GET", "/_local/cyclecloud/nodes")).body).toEqual({ nodes: [] });
  });

  it("accepts only the credentials given at start, and never echoes them", async () => {
    t = await startTestPlane({ platformOptions: { cyclecloud: { user: "ops", password: "s3cret-pw" } } });
    const old = await t.http("GET", "/clusters/demo/status", undefined, basicAuth());
    expect(old.status).toBe(401);
    expect(old.text).not.toContain("s3cret-pw");
    const ok = await t.http("GET", "/clusters/demo/status", undefined, basicAuth("ops", "s3cret-pw"));
    expect(ok.status).toBe(200);
    expect((await t.http("GET", "/_local/audit")).body).toMatchObject({
      entries: [{ api: "cyclecloud", operation: "GetClusterStatus", target: "demo", code: "OK" }],
    });
  });

  it("rejects an empty password option without showing any credential", async () => {
    await expect(startTestPlane({ platformOptions: { cyclecloud: { password: "" } } })).rejects.toThrow(
      new RangeError("invalid cyclecloud password: expected a non-empty string"),
    );
  });

  it("takes the credentials and the definitions file from command-line flags", () => {
    const command = parseCliArgs(["--cyclecloud-user", "ops", "--cyclecloud-password", "pw", "--cyclecloud-clusters", "clusters.json"]);
    expect(command).toMatchObject({ kind: "start", options: { platformOptions: { cyclecloud: { user: "ops", password: "pw", clustersFile: "clusters.json" } } } });
    expect(() => parseCliArgs(["--cyclecloud-password", ""])).toThrow("--cyclecloud-password: expected a non-empty password");
  });
});
