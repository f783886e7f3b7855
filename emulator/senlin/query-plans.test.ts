import * as path from "node:path";
import { DatabaseSync, StatementSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinSession, senlinSession } from "./testing";

/**
 * Actions (and the events they write) pile up for ever, so no call that is not a listing may read
 * them with a full scan: its cost would grow with every action recorded (bench/README.md sections
 * 7-8, bench/senlin-growth.run.ts). This records the SQL each statement runs while the plane serves
 * the per-call routes, and asks SQLite how it would run each one that touches those tables.
 */

/** The SQL text of every statement run, while recording. */
const executed = new Set<string>();
let recording = false;
const methods = ["all", "get", "run", "iterate"] as const;
const originals = Object.fromEntries(methods.map((m) => [m, StatementSync.prototype[m]])) as Record<(typeof methods)[number], (...args: unknown[]) => unknown>;
for (const method of methods) {
  (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function (this: StatementSync, ...args: unknown[]) {
    if (recording) executed.add(this.sourceSQL);
    return originals[method].apply(this, args);
  };
}

afterAll(() => {
  for (const method of methods) (StatementSync.prototype as unknown as Record<string, unknown>)[method] = originals[method];
  removeDataDirs();
});

/** The query plan lines of a statement that read a growing table without an index (or with the whole of one). */
function fullScans(db: DatabaseSync, sql: string): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  // The partial index holds only the unfinished actions: scanning it does not grow with the history.
  return plan.map((row) => row.detail).filter((detail) => /^SCAN senlin_(actions|events)\b/.test(detail) && !detail.includes("INDEX senlin_actions_active"));
}

describe("the local Senlin's per-call queries on actions and events", () => {
  let t: TestPlane;
  let s: SenlinSession;

  afterAll(async () => {
    await t?.close();
  });

  it("use an index: PATCH and GET of a cluster, its actions, an action and an event by id, a resize, a node", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 1, max_size: 5 });
    t.clock.advance(5000);
    recording = true;
    for (let i = 0; i < 3; i++) {
      expect((await s.call("PATCH", `/v1/clusters/${id}`, { cluster: { metadata: { rev: String(i) } } })).status).toBe(202);
      t.clock.advance(2000);
    }
    const resize = await s.call("POST", `/v1/clusters/${id}/actions`, { resize: { adjustment_type: "EXACT_CAPACITY", number: 2 } });
    expect(resize.status).toBe(202);
    t.clock.advance(3000);
    expect((await s.call("GET", `/v1/clusters/${id}`)).status).toBe(200);
    const action = s.actionOf(resize);
    expect((await s.call("GET", `/v1/actions/${action}`)).status).toBe(200);
    const node = await s.call("POST", "/v1/nodes", { node: { name: "n1", profile_id: "web-profile", cluster_id: id } });
    expect(node.status).toBe(202);
    t.clock.advance(3000);
    recording = false;
    // An event id, then the event by it and by its short id.
    const events = (await s.call("GET", `/v1/events?cluster_id=${id}`)).body as { events: { id: string; action: string }[] };
    const resized = events.events.find((e) => e.action === "CLUSTER_RESIZE");
    expect(resized).toBeDefined();
    recording = true;
    expect((await s.call("GET", `/v1/events/${resized?.id}`)).status).toBe(200);
    expect((await s.call("GET", `/v1/events/${resized?.id.slice(0, 8)}`)).status).toBe(200);
    recording = false;

    const touching = [...executed].filter((sql) => /senlin_(actions|events)\b/.test(sql));
    // The recording saw the statements of interest (a broken recorder would pass with none).
    expect(touching.some((sql) => sql.startsWith("INSERT INTO senlin_actions"))).toBe(true);
    expect(touching.some((sql) => sql.includes("FROM senlin_events"))).toBe(true);
    const db = new DatabaseSync(path.join(t.dataDir, "state.db"), { readOnly: true });
    try {
      expect(touching.map((sql) => ({ sql, scans: fullScans(db, sql) })).filter((q) => q.scans.length > 0)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
