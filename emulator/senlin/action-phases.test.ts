import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { DEPENDENTS_DONE_REASON, WAITING_REASON } from "./lifecycle";
import { type SenlinSession, senlinSession } from "./testing";

// What a client polling an action sees, as on the real Senlin 14 (test/senlin-real/parity: the
// action lifecycles and the events listing): a cluster action that works through node actions
// waits for them, and every action's events carry what Senlin's dispatcher and handlers write.

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

interface ActionView {
  status: string;
  status_reason: string;
  start_time: number | null;
  end_time: number | null;
}

const action = async (id: string): Promise<ActionView> => ((await s.call("GET", `/v1/actions/${id}`)).body as { action: ActionView }).action;

/** The action's status and reason at each of the given times (ms after now, ascending). */
async function phases(id: string, atMs: number[]): Promise<string[]> {
  const seen: string[] = [];
  let now = 0;
  for (const at of atMs) {
    t.clock.advance(at - now);
    now = at;
    const a = await action(id);
    seen.push(`${at} ${a.status} ${a.status_reason}`);
  }
  return seen;
}

describe("action phases", () => {
  it("runs a cluster action that works through node actions RUNNING, WAITING for them, READY once they ended, then SUCCEEDED", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createProfile("p1");
    // CLUSTER_CREATE runs 3 s: a tenth its own work before the nodes, a tenth after.
    const { action: id } = await s.createCluster("web", { desired_capacity: 2, max_size: 4 });
    expect(await phases(id, [0, 299, 300, 2699, 2700, 2999, 3000])).toEqual([
      "0 RUNNING ",
      "299 RUNNING ",
      `300 WAITING ${WAITING_REASON}`,
      `2699 WAITING ${WAITING_REASON}`,
      `2700 READY ${DEPENDENTS_DONE_REASON}`,
      `2999 READY ${DEPENDENTS_DONE_REASON}`,
      "3000 SUCCEEDED Action completed successfully.",
    ]);
  });

  it("shows a start time while it waits and is ready again, and cancels it as a started action", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createProfile("p1");
    const { action: id } = await s.createCluster("web", { desired_capacity: 1, max_size: 4 });
    t.clock.advance(1000);
    expect(await action(id)).toMatchObject({ status: "WAITING", start_time: 1_700_000_000, end_time: null });
    t.clock.advance(1800);
    expect(await action(id)).toMatchObject({ status: "READY", start_time: 1_700_000_000, end_time: null });
    expect((await s.call("PATCH", `/v1/actions/${id}`, { action: { status: "CANCELLED" } })).status).toBe(202);
    // Cancelled while its node was still being made: the node ends in ERROR, as for a RUNNING action.
    const nodes = (await s.call("GET", "/v1/nodes?cluster_id=web")).body as { nodes: { status: string }[] };
    expect(nodes.nodes.map((n) => n.status)).toEqual(["ERROR"]);
  });

  it.each([
    ["a create of no node", { desired_capacity: 0 }, undefined, ["0 RUNNING ", "2999 RUNNING ", "3000 SUCCEEDED Action completed successfully."]],
    ["a resize that changes only the bounds", { desired_capacity: 1, max_size: 3 }, { resize: { max_size: 4 } }, ["0 RUNNING ", "1999 RUNNING ", "2000 SUCCEEDED Action completed successfully."]],
    [
      "a scale-out beyond max_size, which fails its own size check",
      { desired_capacity: 1, max_size: 1 },
      { scale_out: { count: 1 } },
      ["0 RUNNING ", "1999 RUNNING ", "2000 FAILED The target capacity (2) is greater than the cluster's max_size (1)."],
    ],
  ])("keeps %s RUNNING to its end: it waits for no node action", async (_what, sizes, body, expected) => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createProfile("p1");
    const created = await s.createCluster("web", sizes);
    let id = created.action;
    if (body) {
      t.clock.advance(3000);
      id = s.actionOf(await s.call("POST", "/v1/clusters/web/actions", body));
    }
    const times = expected.map((line) => Number(line.split(" ")[0]));
    expect(await phases(id, times)).toEqual(expected);
  });
});

describe("action events", () => {
  it("start with the action's short id and end with its handler's reason; a derived action writes none", async () => {
    t = await startTestPlane();
    s = await senlinSession(t);
    await s.createProfile("p1");
    await s.createProfile("p2");
    const { id, action: create } = await s.createCluster("web", { desired_capacity: 1, max_size: 3 });
    t.clock.advance(3000);
    const resize = s.actionOf(await s.call("POST", "/v1/clusters/web/actions", { resize: { adjustment_type: "EXACT_CAPACITY", number: 2 } }));
    t.clock.advance(2000);
    // A profile update: a rolling update through derived NODE_UPDATE actions.
    const update = s.actionOf(await s.call("PATCH", "/v1/clusters/web", { cluster: { profile_id: "p2" } }));
    t.clock.advance(10_000);
    expect((await action(update)).status).toBe("SUCCEEDED");
    const listed = ((await s.call("GET", "/v1/events?sort=timestamp")).body as { events: { action: string; status: string; status_reason: string; oid: string }[] }).events;
    expect(listed.map((e) => [e.action, e.status, e.status_reason, e.oid === id])).toEqual([
      ["CLUSTER_CREATE", "start", create.slice(0, 8), true],
      ["CLUSTER_CREATE", "end", "Cluster creation succeeded.", true],
      ["CLUSTER_RESIZE", "start", resize.slice(0, 8), true],
      ["CLUSTER_RESIZE", "end", "Cluster resize succeeded.", true],
      ["CLUSTER_UPDATE", "start", update.slice(0, 8), true],
      ["CLUSTER_UPDATE", "end", "Cluster update completed.", true],
    ]);
  });
});
