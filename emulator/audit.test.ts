import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit";
import { startTestPlane, type TestPlane, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

async function auditSince(since?: number): Promise<{ entries: AuditEntry[]; next: number }> {
  const query = since === undefined ? "" : `?since=${since}`;
  return (await t.http("GET", `/_local/audit${query}`)).body as { entries: AuditEntry[]; next: number };
}

describe("audit log", () => {
  it("records gRPC and REST calls with operation, target, request id and code", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", workerNodePools: [{ name: "p1" }] }, { headers: { "x-request-id": "req-1" } });
    await t.http("PUT", "/api/v1/cluster/pool", { clusterName: "c1", node_pools: [{ name: "p1", count: 2 }] }, { "x-request-id": "req-2" });
    await t.http("GET", "/api/v1/cluster?name=ghost");
    await t.cmassh.deleteNodePool({ clusterName: "c1", nodePoolNames: ["p1", "p2"] }).catch(() => undefined);
    await t.cmassh.getClusterList({});
    await t.http("GET", "/_local/health");

    const { entries, next } = await auditSince();
    expect(entries.map(({ seq, api, operation, target, code }) => ({ seq, api, operation, target, code }))).toEqual([
      { seq: 1, api: "cmassh", operation: "CreateCluster", target: "c1", code: "OK" },
      { seq: 2, api: "cmassh", operation: "ScaleNodePool", target: "c1/p1", code: "OK" },
      { seq: 3, api: "cmassh", operation: "GetCluster", target: "ghost", code: "NOT_FOUND" },
      { seq: 4, api: "cmassh", operation: "DeleteNodePool", target: "c1", code: "NOT_FOUND" },
      { seq: 5, api: "cmassh", operation: "GetClusterList", target: "", code: "OK" },
    ]);
    expect(next).toBe(5);
    expect(entries[0].requestId).toBe("req-1");
    expect(entries[1].requestId).toBe("req-2");
    expect(entries[2].requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries[3].requestId).not.toBe(entries[2].requestId);
    expect(entries[0].time).toBe(new Date(t.clock.now()).toISOString());
  });

  it("pages with `since`: later entries only, and `next` stays put when there are none", async () => {
    t = await startTestPlane();
    for (let i = 0; i < 3; i++) await t.cmassh.getClusterList({});
    const first = await auditSince(0);
    expect(first.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    await t.cmassh.getVersionInformation({});
    const second = await auditSince(first.next);
    expect(second.entries.map((e) => [e.seq, e.operation])).toEqual([[4, "GetVersionInformation"]]);
    expect(second.next).toBe(4);
    expect(await auditSince(4)).toEqual({ entries: [], next: 4 });
    expect(await auditSince(100)).toEqual({ entries: [], next: 100 });
  });
});
