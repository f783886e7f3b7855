import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startTestPlane, type TestPlane, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

describe("admin API", () => {
  it("reports health", async () => {
    t = await startTestPlane();
    expect(await t.http("GET", "/_local/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers unknown admin paths with 404 JSON", async () => {
    t = await startTestPlane();
    expect(await t.http("GET", "/_local/nope")).toMatchObject({ status: 404, body: { error: "no admin endpoint at /_local/nope" } });
  });

  it("answers a wrong method with 405 naming the allowed ones", async () => {
    t = await startTestPlane();
    const response = await t.http("POST", "/_local/health");
    expect(response).toMatchObject({ status: 405, body: { error: "POST not allowed on /_local/health; allowed: GET" } });
  });

  it.each([
    ["-1"],
    ["abc"],
    ["1.5"],
  ])("rejects since=%s with 400", async (since) => {
    t = await startTestPlane();
    const response = await t.http("GET", `/_local/audit?since=${since}`);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain('"since"');
  });

  it.each([
    ["not JSON", "{oops", "invalid body: expected a JSON object"],
    ["no action", {}, 'field "action"'],
    ["an unknown code", { action: "error", code: "BROKEN" }, 'field "code"'],
    ["a delay without delayMs", { action: "delay" }, 'field "delayMs"'],
    ["an unknown operation", { action: "error", operation: "MakeCoffee" }, 'field "operation": got "MakeCoffee"'],
  ])("rejects a fault body with %s with 400 naming the field", async (_label, body, message) => {
    t = await startTestPlane();
    const response = await t.http("POST", "/_local/faults", body);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(message);
    expect((await t.http("GET", "/_local/faults")).body).toMatchObject({ faults: [] });
  });

  it("returns fault ids that differ", async () => {
    t = await startTestPlane();
    const a = await t.http("POST", "/_local/faults", { action: "error" });
    const b = await t.http("POST", "/_local/faults", { action: "error" });
    expect((a.body as { id: string }).id).not.toBe((b.body as { id: string }).id);
  });

  it("does not audit admin calls", async () => {
    t = await startTestPlane();
    await t.http("GET", "/_local/health");
    await t.http("GET", "/_local/cmassh/clusters");
    expect((await t.http("GET", "/_local/audit")).body).toEqual({ entries: [], next: 0 });
  });
});
