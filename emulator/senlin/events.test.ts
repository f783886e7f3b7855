import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

interface EventView {
  id: string;
  action: string;
  level: string;
  oid: string;
  oname: string;
  otype: string;
  status: string;
  status_reason: string;
  timestamp: string;
}

const events = async (query = ""): Promise<EventView[]> => ((await s.call("GET", `/v1/events${query}`)).body as { events: EventView[] }).events;
const summary = (list: EventView[]) => list.map((e) => `${e.action} ${e.status} ${e.level} ${e.oname}`);

describe("events", () => {
  it("are written as actions start and end, keep a deleted object's name, and are found by id and short id", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    const { id } = await s.createCluster("web", { desired_capacity: 1, max_size: 1 });
    // The create starts at once: its start event is there, its end is not yet.
    expect(summary(await events())).toEqual(["CLUSTER_CREATE start INFO web"]);
    t.clock.advance(5000);
    // A scale-out beyond max_size without a count: accepted, and the action fails.
    await s.call("POST", `/v1/clusters/${id}/actions`, { scale_out: {} });
    t.clock.advance(5000);
    await s.call("DELETE", `/v1/clusters/${id}`);
    t.clock.advance(5000);
    const all = await events();
    expect(summary(all)).toEqual([
      "CLUSTER_CREATE start INFO web",
      "CLUSTER_CREATE end INFO web",
      "CLUSTER_SCALE_OUT start INFO web",
      "CLUSTER_SCALE_OUT error ERROR web",
      "CLUSTER_DELETE start INFO web",
      // The cluster is gone when its delete ends: the event keeps the name it had.
      "CLUSTER_DELETE end INFO web",
    ]);
    expect(all.every((e) => e.oid === id && e.otype === "CLUSTER")).toBe(true);
    expect(all[3].status_reason).toBe("The target capacity (2) is greater than the cluster's max_size (1).");
    expect(summary(await events("?level=ERROR"))).toEqual(["CLUSTER_SCALE_OUT error ERROR web"]);
    expect((await s.call("GET", `/v1/events/${all[3].id}`)).body).toEqual({ event: all[3] });
    expect((await s.call("GET", `/v1/events/${all[3].id.slice(0, 8)}`)).body).toEqual({ event: all[3] });
    expect((await s.call("GET", "/v1/events/0000")).status).toBe(404);
  });

  it("of a state.db written before events were stored are derived from its actions when the plane opens it", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createCluster("web", { desired_capacity: 1 });
    t.clock.advance(5000);
    const before = await events();
    expect(summary(before)).toEqual(["CLUSTER_CREATE start INFO web", "CLUSTER_CREATE end INFO web"]);
    await t.close();
    // As an older release left it: actions, no events.
    const db = new DatabaseSync(path.join(t.dataDir, "state.db"));
    db.exec("DELETE FROM senlin_events");
    db.close();
    t = await startTestPlane({ dataDir: t.dataDir, clock: t.clock });
    s = await senlinSession(t);
    expect(await events()).toEqual(before);
  });
});
