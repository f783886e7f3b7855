import { describe, expect, it } from "vitest";
import type { TestPlane } from "../testing";
import { basicAuth, type CycleCloudCaller, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

const names = (body: unknown): string[] => (body as { nodes: { Name: string }[] }).nodes.map((n) => n.Name);

describe("operations", () => {
  it("reports each operation's action and start time by id, and lists them all in order", async () => {
    const created = await cc.create("execute", 2, {});
    t.clock.advance(65_000);
    const terminated = (await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] })).body as { operationId: string };
    expect((await cc.get(`/operations/${created}`)).body).toEqual({ action: "create", startTime: "2023-11-14T22:13:20Z" });
    expect((await cc.get(`/operations/${terminated.operationId}`)).body).toEqual({ action: "terminate", startTime: "2023-11-14T22:14:25Z" });
    expect((await cc.get("/operations/")).body).toEqual([
      { action: "create", startTime: "2023-11-14T22:13:20Z" },
      { action: "terminate", startTime: "2023-11-14T22:14:25Z" },
    ]);
  });

  it.each([
    ["a known request id", "?request_id=r-1", [{ action: "create", startTime: "2023-11-14T22:13:20Z" }]],
    ["an unknown request id", "?request_id=r-2", []],
  ])("lists 0 or 1 operation for %s", async (_label, query, expected) => {
    await cc.post("/clusters/demo/nodes/create", { requestId: "r-1", sets: [{ nodearray: "gpu", count: 1 }] });
    expect(await cc.get(`/operations/${query}`)).toMatchObject({ status: 200, body: expected });
  });

  it("answers 404 for an unknown operation id", async () => {
    expect(await cc.get("/operations/00000000-0000-0000-0000-000000000000")).toMatchObject({
      status: 404,
      text: 'operation "00000000-0000-0000-0000-000000000000" not found\n',
    });
  });
});

describe("GET /clusters/{cluster}/nodes by operation or request id", () => {
  it("returns only the operation's nodes, with the operation", async () => {
    await cc.create("execute", 1);
    const second = await cc.post("/clusters/demo/nodes/create", { requestId: "r-9", sets: [{ nodearray: "gpu", count: 2 }] });
    const operationId = (second.body as { operationId: string }).operationId;
    const byId = await cc.get(`/clusters/demo/nodes?operation=${operationId}`);
    expect(names(byId.body)).toEqual(["gpu-1", "gpu-2"]);
    expect((byId.body as { operation: unknown }).operation).toEqual({ action: "create", startTime: "2023-11-14T22:13:20Z" });
    expect((await cc.get("/clusters/demo/nodes?request_id=r-9")).body).toEqual(byId.body);
    expect(names((await cc.get("/clusters/demo/nodes")).body)).toEqual(["execute-1", "gpu-1", "gpu-2"]);
    expect((await cc.get("/clusters/demo/nodes")).body).not.toHaveProperty("operation");
  });

  it("lists the nodes a management action changed, not those it refused, until their records are removed", async () => {
    await cc.create("execute", 2);
    t.clock.advance(5000);
    await cc.create("execute", 1);
    const response = await cc.post("/clusters/demo/nodes/deallocate", { requestId: "d-1", filter: 'Template === "execute"' });
    expect((response.body as { nodes: { name: string; status: string }[] }).nodes.map((n) => [n.name, n.status])).toEqual([
      ["execute-1", "OK"],
      ["execute-2", "OK"],
      ["execute-3", "Error"],
    ]);
    expect(names((await cc.get("/clusters/demo/nodes?request_id=d-1")).body)).toEqual(["execute-1", "execute-2"]);
  });

  it.each([
    ["an unknown operation", "?operation=nope", 404, 'operation "nope" not found\n'],
    ["an unknown request id", "?request_id=nope", 404, 'no operation with request id "nope"\n'],
    ["both operation and request_id", "?operation=a&request_id=b", 400, "invalid query: give operation or request_id, not both\n"],
  ])("answers %s with %i", async (_label, query, status, text) => {
    expect(await cc.get(`/clusters/demo/nodes${query}`)).toMatchObject({ status, text });
  });

  it("answers 404 for an operation of another cluster and for an unknown cluster", async () => {
    await t.http("POST", "/_local/cyclecloud/clusters", { name: "other", nodearrays: [{ name: "x", machineType: "Standard_D2s_v3", quota: 1 }] });
    const operationId = await cc.create("execute", 1);
    expect((await cc.get(`/clusters/other/nodes?operation=${operationId}`)).status).toBe(404);
    expect(await cc.get("/clusters/ghost/nodes")).toMatchObject({ status: 404, text: 'cluster "ghost" not found\n' });
  });
});

describe("routing", () => {
  it.each([
    ["GET", "/clusters/demo/nodes/create", 405],
    ["DELETE", "/clusters/demo/nodes", 405],
    ["POST", "/clusters/demo/nodes/explode", 404],
    ["GET", "/clusters/demo", 404],
  ])("answers %s %s with %i", async (method, path, status) => {
    const response = await t.http(method, path, undefined, basicAuth());
    expect(response.status).toBe(status);
  });
});
