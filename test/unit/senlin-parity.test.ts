import { describe, expect, it } from "vitest";
import { compared } from "../senlin-real/parity/compare";
import { comparableLifecycle } from "../senlin-real/parity/lifecycle";
import { diff, listFields, Normalizer } from "../senlin-real/parity/normalize";
import type { Observation } from "../senlin-real/parity/runner";
import type { Step } from "../senlin-real/parity/scenarios";

// The pure parts of the real-Senlin parity test (test/senlin-real/parity.ts): what of an action's
// lifecycle is compared, how a listing is cut to its meaningful fields and compared as a set, and
// how ids are numbered.

describe("an action's lifecycle as the parity test compares it", () => {
  it.each([
    // Seen on the real Senlin 14 (parity run of 2026-11-28): the statuses a poll caught.
    ["a real cluster create", ["READY", "RUNNING", "WAITING", "SUCCEEDED"], ["WAITING", "SUCCEEDED"]],
    ["a real cluster delete, READY again seen", ["RUNNING", "WAITING", "READY", "SUCCEEDED"], ["WAITING", "SUCCEEDED"]],
    ["a real rolling update, batch after batch", ["RUNNING", "WAITING", "READY", "WAITING", "READY", "SUCCEEDED"], ["WAITING", "SUCCEEDED"]],
    ["a wait whose WAITING fell between two polls", ["RUNNING", "READY", "SUCCEEDED"], ["WAITING", "SUCCEEDED"]],
    ["a wait whose RUNNING fell between two polls", ["WAITING", "SUCCEEDED"], ["WAITING", "SUCCEEDED"]],
    ["a policy attach", ["READY", "RUNNING", "SUCCEEDED"], ["SUCCEEDED"]],
    ["an action that ended before the first poll", ["SUCCEEDED"], ["SUCCEEDED"]],
    ["an action queued, then ended between two polls", ["READY", "SUCCEEDED"], ["SUCCEEDED"]],
    ["a scale refused by its own size check", ["RUNNING", "FAILED"], ["FAILED"]],
    ["a derived action made INIT first", ["INIT", "READY", "RUNNING", "SUCCEEDED"], ["SUCCEEDED"]],
    ["a cancelled wait", ["RUNNING", "WAITING", "CANCELLED"], ["WAITING", "CANCELLED"]],
  ])("keeps of %s whether it waited and its end", (_what, seen, compared) => {
    expect(comparableLifecycle(seen)).toEqual(compared);
  });

  it.each([
    ["running after it waited", ["RUNNING", "WAITING", "RUNNING", "SUCCEEDED"]],
    ["queued after it ran, as a lock retry would", ["RUNNING", "READY", "RUNNING", "SUCCEEDED"]],
    ["no end", ["RUNNING", "WAITING"]],
    ["a status after its end", ["SUCCEEDED", "RUNNING"]],
    ["INIT after RUNNING", ["RUNNING", "INIT", "SUCCEEDED"]],
  ])("answers a sequence out of Senlin's order (%s) with what was seen, so it differs from any in order", (_what, seen) => {
    expect(comparableLifecycle(seen)).toEqual([`out of order: ${seen.join(" ")}`]);
  });

  it("tells a server that never waits from one that does: the plane's old RUNNING-to-the-end create differs from the real one's", () => {
    expect(comparableLifecycle(["RUNNING", "SUCCEEDED"])).not.toEqual(comparableLifecycle(["RUNNING", "WAITING", "READY", "SUCCEEDED"]));
  });
});

describe("a listing cut to its meaningful fields", () => {
  it("keeps the given fields of every item of the body's list, in the given order, absent ones as undefined", () => {
    const body = { events: [{ id: "e1", timestamp: "t", action: "CLUSTER_CREATE", status: "start", level: "INFO" }, { id: "e2", action: "CLUSTER_CREATE", status: "end" }] };
    expect(listFields(body, ["status", "action", "level"])).toEqual({
      events: [
        { status: "start", action: "CLUSTER_CREATE", level: "INFO" },
        { status: "end", action: "CLUSTER_CREATE", level: undefined },
      ],
    });
  });

  it("leaves an error body as it is", () => {
    const body = { code: 400, error: { type: "HTTPBadRequest", message: "Invalid parameter obj_id" } };
    expect(listFields(body, ["action"])).toEqual(body);
  });
});

describe("the parity normaliser", () => {
  it("writes a short id of no id the observation shows as <short>, whichever it is", () => {
    const events = (a: string, b: string) => ({ events: [{ status_reason: a }, { status_reason: b }] });
    const normal = { events: [{ status_reason: "<short>" }, { status_reason: "<short>" }] };
    expect(new Normalizer("http://real").value(events("1a2b3c4d", "9f8e7d6c"))).toEqual(normal);
    expect(new Normalizer("http://plane").value(events("0badcafe", "12345678"))).toEqual(normal);
  });

  it("still names a short id by the full id it begins when the observation shows that id", () => {
    const n = new Normalizer("http://real");
    const id = "1a2b3c4d-0000-4000-8000-000000000001";
    expect(n.value({ id, name: "cluster_create_1a2b3c4d", reason: "5e6f7a8b" })).toEqual({ id: "<id:1>", name: "cluster_create_<id:1/8>", reason: "<short>" });
  });
});

describe("an events listing as the parity test compares it", () => {
  const step: Step = { name: "events of the cluster", method: "GET", fields: ["action", "status", "status_reason", "level", "oid"], unordered: ["body.events"] };
  const cluster = (n: number) => `c1c1c1c1-0000-4000-8000-00000000000${n}`;
  const event = (n: number, action: string, status: string, reason: string, oid = cluster(1)) => ({
    id: `e0e0e0e0-0000-4000-8000-00000000000${n}`,
    timestamp: `2026-11-28T10:00:0${n}Z`,
    action,
    status,
    status_reason: reason,
    level: status === "error" ? "ERROR" : "INFO",
    oid,
  });
  const observe = (origin: string, events: unknown[]): Observation => new Normalizer(origin).value({ status: 200, headers: {}, body: { events } }) as Observation;
  const create = (n: number) => [event(n, "CLUSTER_CREATE", "start", "1a2b3c4d"), event(n + 1, "CLUSTER_CREATE", "end", "Cluster creation succeeded.")];

  it("agrees on the same events listed in another order, with other ids, times and short ids", () => {
    const real = observe("http://real", [create(1)[1], create(1)[0]]);
    const plane = observe("http://plane", [{ ...create(3)[0], status_reason: "9f8e7d6c" }, create(3)[1]]);
    expect(diff("", compared(step, real), compared(step, plane))).toEqual([]);
  });

  it("sees an end event's other reason, a missing event, and an event of another object", () => {
    const real = observe("http://real", create(1));
    const reason = observe("http://plane", [create(1)[0], { ...create(1)[1], status_reason: "Action completed successfully." }]);
    expect(diff("", compared(step, real), compared(step, reason)).map((d) => d.path)).toEqual([".body.events[0].status_reason"]);
    expect(diff("", compared(step, real), compared(step, observe("http://plane", create(1).slice(0, 1)))).map((d) => d.path)).toEqual([".body.events"]);
    const other = observe("http://plane", [create(1)[0], event(2, "CLUSTER_CREATE", "end", "Cluster creation succeeded.", cluster(2))]);
    expect(diff("", compared(step, real), compared(step, other)).map((d) => d.path)).toEqual([".body.events[0].oid"]);
  });
});
