import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { type FakeTime, fakeTime } from "../../core/testing";
import { basicAuth } from "./basic-auth";
import { createRestCaller, goneOnRetryHook, type RestAuth, type RestCaller } from "./rest-caller";

/** One request the scripted server received. */
interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Replies the server gives in order; the last one repeats. `hang` never answers. */
type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | "hang";

let server: http.Server;
let base: string;
let received: Received[];
let script: Scripted[];
let time: FakeTime;

beforeEach(async () => {
  received = [];
  script = [{ status: 200, body: { ok: true } }];
  time = fakeTime();
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const reply = script.length > 1 ? script.shift()! : script[0];
      if (reply === "hang") return;
      res.writeHead(reply.status, { "Content-Type": "application/json", ...reply.headers });
      res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function caller(extra: Partial<Parameters<typeof createRestCaller>[0]> = {}): RestCaller {
  return createRestCaller({ baseUrl: `${base}/v1/`, requestIdPrefix: "test", sleep: time.sleep, clock: time.now, random: () => 0.999_999, ...extra });
}

describe("REST caller", () => {
  it("sends the method, path, query, JSON body and a fresh request id, and parses the JSON reply", async () => {
    script = [{ status: 202, body: { action: "a1" }, headers: { Location: "/v1/actions/a1" } }];
    const c = caller({ requestIdHeader: "X-OpenStack-Request-ID", headers: { "OpenStack-API-Version": "clustering 1.2" } });
    const response = await c.once("op", { method: "POST", path: "/clusters/c1/actions", query: { force: true, skip: undefined }, body: { check: {} } });
    expect(response).toMatchObject({ status: 202, body: { action: "a1" } });
    expect(response.headers.get("location")).toBe("/v1/actions/a1");
    const [req] = received;
    expect([req.method, req.url, req.body]).toEqual(["POST", "/v1/clusters/c1/actions?force=true", '{"check":{}}']);
    expect(req.headers["x-openstack-request-id"]).toMatch(/^test-[0-9a-f-]{36}$/);
    expect(req.headers["x-openstack-request-id"]).toBe(response.requestId);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["openstack-api-version"]).toBe("clustering 1.2");
  });

  it.each([
    [404, { error: { message: "The cluster 'x' could not be found." } }, "NotFound", "op: HTTP 404: The cluster 'x' could not be found."],
    [409, { error: { message: "busy" } }, "Conflict", "op: HTTP 409: busy"],
    [400, "plain text", "InvalidArgument", "op: HTTP 400: plain text"],
  ])("translates HTTP %i into %s", async (status, body, code, message) => {
    script = [{ status, body }];
    const error = await caller().once("op", { method: "GET", path: "/x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterformError);
    expect(error).toMatchObject({ code, message, platformCode: `HTTP ${status}` });
  });

  it("retries transient statuses with backoff on idempotent calls only", async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 200, body: {} }];
    expect((await caller().retried("op", { method: "GET", path: "/x" })).status).toBe(200);
    expect(time.sleeps).toEqual([100, 200]);
    expect(new Set(received.map((r) => r.headers["x-request-id"])).size).toBe(3);
    received = [];
    script = [{ status: 503 }, { status: 200, body: {} }];
    await expect(caller().once("op", { method: "POST", path: "/x" })).rejects.toMatchObject({ code: "Unavailable" });
    expect(received).toHaveLength(1);
  });

  it("gives up at the deadline with DeadlineExceeded carrying the last error", async () => {
    script = [{ status: 503 }];
    const error = await caller()
      .retried("op", { method: "GET", path: "/x" }, { deadline: new Deadline(1000, time.now) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DeadlineExceeded", ownDeadline: true });
    expect((error as ClusterformError).cause).toMatchObject({ code: "Unavailable" });
  });

  it("re-authenticates once after a 401, even for a call that is not retried", async () => {
    script = [{ status: 401 }, { status: 200, body: {} }];
    let issued = 0;
    const auth: RestAuth = {
      headers: async () => ({ "X-Auth-Token": `token-${issued}` }),
      invalidate: () => {
        issued++;
      },
      secrets: () => [],
    };
    await caller({ auth }).once("op", { method: "POST", path: "/x" });
    expect(received.map((r) => r.headers["x-auth-token"])).toEqual(["token-0", "token-1"]);
    script = [{ status: 401 }];
    await expect(caller({ auth }).once("op", { method: "GET", path: "/x" })).rejects.toMatchObject({ code: "Unauthenticated" });
  });

  it("blanks the auth secrets out of error messages", async () => {
    script = [{ status: 400, body: { error: { message: "bad password hunter2 for token abc" } } }];
    const auth: RestAuth = { headers: async () => ({}), invalidate: () => {}, secrets: () => ["hunter2", "abc"] };
    await expect(caller({ auth }).once("op", { method: "GET", path: "/x" })).rejects.toThrow("op: HTTP 400: bad password [secret] for token [secret]");
  });

  it("translates a refused connection as Unavailable naming the address", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const c = createRestCaller({ baseUrl: `http://127.0.0.1:${port}`, sleep: time.sleep, clock: time.now });
    const error = await c.once("op", { method: "GET", path: "/x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "Unavailable", platformCode: "ECONNREFUSED" });
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
  });

  it("times out a hung attempt as a transient DeadlineExceeded", async () => {
    script = ["hang"];
    const error = await caller({ callTimeoutMs: 50 }).once("op", { method: "GET", path: "/x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DeadlineExceeded", platformCode: "TIMEOUT", ownDeadline: false });
  });

  it("cuts an attempt's timeout to what the deadline has left", async () => {
    script = ["hang"];
    const started = Date.now();
    const error = await caller({ callTimeoutMs: 30_000 })
      .once("op", { method: "GET", path: "/x" }, { deadline: new Deadline(80) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DeadlineExceeded", platformCode: "TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("counts NotFound on a delete retry as success with the gone-on-retry hook", async () => {
    script = [{ status: 503 }, { status: 404, body: { error: { message: "gone" } } }];
    const response = await caller().retried("op", { method: "DELETE", path: "/x" }, undefined, goneOnRetryHook);
    expect(response.status).toBe(404);
    script = [{ status: 404, body: { error: { message: "gone" } } }];
    await expect(caller().retried("op", { method: "DELETE", path: "/x" }, undefined, goneOnRetryHook)).rejects.toMatchObject({ code: "NotFound" });
  });
});

describe("basic auth", () => {
  it("sends Authorization: Basic and keeps the password and its encoding out of errors", async () => {
    script = [{ status: 403, body: { message: "user ops with password pa55 (b3BzOnBhNTU=) denied" } }];
    const error = await caller({ auth: basicAuth("ops", "pa55") }).once("op", { method: "GET", path: "/x" }).catch((e: unknown) => e);
    expect(received[0].headers.authorization).toBe("Basic b3BzOnBhNTU=");
    expect(error).toMatchObject({ code: "PermissionDenied", message: "op: HTTP 403: user ops with password [secret] ([secret]) denied" });
  });
});
