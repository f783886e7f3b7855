import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type AuditEntry, createAuditLog, DEFAULT_AUDIT_RETENTION, MAX_AUDIT_REQUEST_CHARS, trimBatchSize } from "./audit";
import { openDatabase } from "./database";
import { makeDataDir, removeDataDirs, startTestPlane, type TestPlane } from "./testing";

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

  it("records each call's request body: a gRPC message in its JSON form (defaults included), a REST body as sent", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "c1", k8sVersion: "1.31.6", workerNodePools: [{ name: "p1" }] });
    await t.http("PUT", "/api/v1/cluster/pool", { clusterName: "c1", node_pools: [{ name: "p1", count: 2 }] });
    const { entries } = await auditSince();
    expect(entries[0].request).toMatchObject({ name: "c1", k8sVersion: "1.31.6", workerNodePools: [{ name: "p1", count: 0 }] });
    expect(entries[1].request).toMatchObject({ clusterName: "c1", nodePools: [{ name: "p1", count: 2 }] });
  });

  it("keeps no secret of a request body, at any depth, and leaves out a body too large to keep", () => {
    const db: DatabaseSync = openDatabase(makeDataDir());
    const log = createAuditLog(db);
    const base = { time: "t", api: "x", operation: "Op", target: "", requestId: "r", code: "OK" as const };
    log.record({ ...base, request: { auth: { password: "hunter2", user: "u" }, nodes: [{ kubeconfig: "k", name: "n" }], apiToken: "t" } });
    log.record({ ...base, request: { blob: "x".repeat(MAX_AUDIT_REQUEST_CHARS) } });
    const [small, large] = log.listSince(0);
    expect(small.request).toEqual({ auth: { password: "[redacted]", user: "u" }, nodes: [{ kubeconfig: "[redacted]", name: "n" }], apiToken: "[redacted]" });
    expect(large).not.toHaveProperty("request");
  });

  it("adds the request column to a database an older plane wrote, keeping its entries", () => {
    const dir = makeDataDir();
    const old = new DatabaseSync(path.join(dir, "state.db"));
    old.exec("CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, api TEXT NOT NULL, operation TEXT NOT NULL, target TEXT NOT NULL, request_id TEXT NOT NULL, code TEXT NOT NULL)");
    old.exec("INSERT INTO audit (time, api, operation, target, request_id, code) VALUES ('t', 'x', 'Old', '', 'r', 'OK')");
    old.close();
    const log = createAuditLog(openDatabase(dir));
    log.record({ time: "t", api: "x", operation: "New", target: "", requestId: "r", code: "OK", request: { count: 2 } });
    expect(log.listSince(0).map((e) => [e.operation, e.request])).toEqual([["Old", undefined], ["New", { count: 2 }]]);
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

describe("audit retention", () => {
  const entry = (n: number): Omit<AuditEntry, "seq"> => ({
    time: new Date(n * 1000).toISOString(),
    api: "cmassh",
    operation: "GetCluster",
    target: `c${n}`,
    requestId: `req-${n}`,
    code: "OK",
  });
  const rowCount = (db: DatabaseSync): number => (db.prepare("SELECT COUNT(*) AS n FROM audit").get() as { n: number }).n;

  it.each([
    [1, 1],
    [9, 1],
    [10, 1],
    [25, 2],
    [10_000, 1000],
    [DEFAULT_AUDIT_RETENTION, 1000],
  ])("trims a retention of %i in batches of %i", (retention, batch) => {
    expect(trimBatchSize(retention)).toBe(batch);
  });

  it("keeps between the retention and retention + batch - 1 entries, the newest, with increasing seqs", () => {
    const db = openDatabase(makeDataDir());
    const log = createAuditLog(db, { retention: 20 });
    const counts: number[] = [];
    for (let n = 1; n <= 100; n++) {
      expect(log.record(entry(n)).seq).toBe(n);
      counts.push(rowCount(db));
    }
    expect(counts.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Batch 2: one entry over the retention waits, the second triggers the trim back to 20.
    expect(new Set(counts.slice(20))).toEqual(new Set([20, 21]));
    const kept = log.listSince(0);
    expect(kept.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 81 + i));
    expect(kept.at(-1)).toEqual({ seq: 100, ...entry(100) });
    db.close();
  });

  it("deletes nothing until a whole batch is over the retention, then the batch at once", () => {
    const db = openDatabase(makeDataDir());
    const log = createAuditLog(db, { retention: 1000 });
    for (let n = 1; n <= 1099; n++) log.record(entry(n));
    expect(rowCount(db)).toBe(1099);
    log.record(entry(1100));
    expect(rowCount(db)).toBe(1000);
    expect(log.listSince(0)[0].seq).toBe(101);
    db.close();
  });

  it("answers `since` within the retained entries, and an older `since` from the oldest one kept", () => {
    const db = openDatabase(makeDataDir());
    const log = createAuditLog(db, { retention: 5 });
    for (let n = 1; n <= 12; n++) log.record(entry(n));
    expect(log.listSince(0).map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(log.listSince(3).map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(log.listSince(10).map((e) => e.seq)).toEqual([11, 12]);
    expect(log.listSince(12)).toEqual([]);
    db.close();
  });

  it("trims an existing log to a smaller retention when opened, and keeps counting from where it was", () => {
    const dir = makeDataDir();
    let db = openDatabase(dir);
    const first = createAuditLog(db, { retention: 100 });
    for (let n = 1; n <= 50; n++) first.record(entry(n));
    db.close();
    db = openDatabase(dir);
    const second = createAuditLog(db, { retention: 10 });
    expect(second.listSince(0).map((e) => e.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect(second.record(entry(51)).seq).toBe(51);
    db.close();
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects a retention of %d, naming it", (retention) => {
    const db = openDatabase(makeDataDir());
    expect(() => createAuditLog(db, { retention })).toThrow(`invalid auditRetention ${retention}: expected an integer >= 1`);
    db.close();
  });

  it("trims through the plane: `/_local/audit` lists the newest entries with their original seqs", async () => {
    t = await startTestPlane({ auditRetention: 3 });
    for (let i = 0; i < 5; i++) await t.cmassh.getClusterList({});
    const all = await auditSince(0);
    expect(all.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(all.next).toBe(5);
    expect((await auditSince(4)).entries.map((e) => e.seq)).toEqual([5]);
  });

  it("refuses to start with a bad retention", async () => {
    await expect(startTestPlane({ auditRetention: 0 })).rejects.toThrow("invalid auditRetention 0: expected an integer >= 1");
  });
});
