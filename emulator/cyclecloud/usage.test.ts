import { describe, expect, it } from "vitest";
import type { TestPlane } from "../testing";
import { type CycleCloudCaller, onAFreshPlaneEachTest } from "./testing";

let t: TestPlane;
let cc: CycleCloudCaller;
onAFreshPlaneEachTest((plane, caller) => {
  t = plane;
  cc = caller;
});

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 10, 10, 0, 0);

interface Item {
  category: string;
  hours: number;
  node?: string;
  details?: { vm_size: string; hours: number; core_count: number; region: string; priority: string; os: string }[];
}
interface Interval {
  start: string;
  end: string;
  total: Item;
  breakdown: Item[];
}

/**
 * At 2024-01-10T10:00Z: execute-1 (2 cores) and gpu-1 (6 cores) start; both are billed from
 * Preparing (10:00:02). execute-1 is terminated at 11:00:00 and stops being billed at 11:00:02:
 * 2 core-hours. gpu-1 runs on; the usage is read at 13:00:02: 3 hours x 6 = 18 core-hours.
 */
async function scenario(): Promise<void> {
  t.clock.set(T0);
  await cc.create("execute", 1);
  await cc.create("gpu", 1);
  t.clock.set(T0 + HOUR);
  await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
  t.clock.set(T0 + 3 * HOUR + 2000);
}

async function usage(query: string): Promise<Interval[]> {
  const response = await cc.get(`/clusters/demo/usage${query}`);
  expect(response.status).toBe(200);
  return (response.body as { usage: Interval[] }).usage;
}

const summary = (intervals: Interval[]) =>
  intervals.map((i) => [i.start, i.end, i.total.hours, ...i.breakdown.map((b) => `${b.node}=${b.hours}`)]);

describe("GET /clusters/{cluster}/usage (core-hours from node lifetimes)", () => {
  it.each([
    ["total this week", "?timeframe=weekToDate&granularity=total", [["2024-01-07T00:00:00Z", "2024-01-11T00:00:00Z", 20, "execute=2", "gpu=18"]]],
    ["total this month", "?granularity=total", [["2024-01-01T00:00:00Z", "2024-01-11T00:00:00Z", 20, "execute=2", "gpu=18"]]],
    ["last month", "?timeframe=lastMonth&granularity=total", [["2023-12-01T00:00:00Z", "2024-01-01T00:00:00Z", 0, "execute=0", "gpu=0"]]],
    [
      "hourly, custom range rounded out to whole hours",
      "?timeframe=custom&from=2024-01-10T10:30:00Z&to=2024-01-10T13:30:00Z&granularity=hourly",
      [
        ["2024-01-10T10:00:00Z", "2024-01-10T11:00:00Z", 7.995556, "execute=1.998889", "gpu=5.996667"],
        ["2024-01-10T11:00:00Z", "2024-01-10T12:00:00Z", 6.001111, "execute=0.001111", "gpu=6"],
        ["2024-01-10T12:00:00Z", "2024-01-10T13:00:00Z", 6, "execute=0", "gpu=6"],
        ["2024-01-10T13:00:00Z", "2024-01-10T14:00:00Z", 0.003333, "execute=0", "gpu=0.003333"],
      ],
    ],
  ])("reports %s", async (_label, query, expected) => {
    await scenario();
    expect(summary(await usage(query))).toEqual(expected);
  });

  it("reports daily intervals by default, from the first of the month to the end of today", async () => {
    await scenario();
    const intervals = await usage("");
    expect(intervals).toHaveLength(10);
    expect(intervals.map((i) => i.total.hours)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 20]);
    expect(intervals[9]).toEqual({
      start: "2024-01-10T00:00:00Z",
      end: "2024-01-11T00:00:00Z",
      total: { category: "cluster", hours: 20 },
      breakdown: [
        { category: "nodearray", node: "execute", hours: 2, details: [{ vm_size: "Standard_F2s_v2", hours: 2, core_count: 2, region: "westeurope", priority: "Regular", os: "Linux" }] },
        { category: "nodearray", node: "gpu", hours: 18, details: [{ vm_size: "Standard_NC6", hours: 18, core_count: 6, region: "westeurope", priority: "Regular", os: "Linux" }] },
      ],
    });
  });

  it("bills nothing while Acquiring, nothing while deallocated, and again from Preparing after start", async () => {
    t.clock.set(T0);
    await cc.create("execute", 1);
    t.clock.set(T0 + HOUR + 2000);
    await cc.post("/clusters/demo/nodes/deallocate", { names: ["execute-1"] });
    t.clock.set(T0 + 5 * HOUR);
    await cc.post("/clusters/demo/nodes/start", { names: ["execute-1"] });
    t.clock.set(T0 + 6 * HOUR + 2000);
    // Billed 10:00:02-11:00:04 (1 h + 2 s) and 15:00:02-16:00:02 (1 h), 2 cores each.
    const [total] = await usage("?granularity=total");
    expect(total.total.hours).toBe(Math.round(((2 * (2 * HOUR + 2000)) / HOUR) * 1e6) / 1e6);
  });

  it("bills nothing for a node terminated while it was still Acquiring", async () => {
    t.clock.set(T0);
    await cc.create("execute", 1);
    t.clock.advance(1000);
    await cc.post("/clusters/demo/nodes/terminate", { names: ["execute-1"] });
    t.clock.advance(HOUR);
    expect((await usage("?granularity=total"))[0].total.hours).toBe(0);
  });

  it("reports Spot nodearrays with priority Spot", async () => {
    await t.http("POST", "/_local/cyclecloud/clusters", {
      name: "demo",
      nodearrays: [{ name: "spot", machineType: "Standard_D2s_v3", quota: 4, spot: true, region: "eastus" }],
    });
    t.clock.set(T0);
    await cc.create("spot", 1);
    t.clock.set(T0 + HOUR + 2000);
    const [interval] = await usage("?granularity=total");
    expect(interval.breakdown).toEqual([
      { category: "nodearray", node: "spot", hours: 2, details: [{ vm_size: "Standard_D2s_v3", hours: 2, core_count: 2, region: "eastus", priority: "Spot", os: "Linux" }] },
    ]);
  });

  it.each([
    ["timeframe=yesterday", 'invalid query parameter "timeframe": got "yesterday", allowed: monthToDate, lastMonth, weekToDate, custom'],
    ["granularity=weekly", 'invalid query parameter "granularity": got "weekly", allowed: total, daily, hourly'],
    ["timeframe=custom&to=2024-01-01T00:00:00Z", 'invalid query parameter "from": got null, expected an ISO-8601 time (required when timeframe is custom)'],
    ["timeframe=custom&from=2024-01-02&to=2024-01-01", 'invalid time range: "from" (2024-01-02T00:00:00Z) must be before "to" (2024-01-01T00:00:00Z)'],
    ["timeframe=custom&from=2000-01-01&to=2024-01-01&granularity=hourly", "invalid time range: more than 10000 hourly intervals"],
  ])("answers 400 to %s", async (query, message) => {
    expect(await cc.get(`/clusters/demo/usage?${query}`)).toMatchObject({ status: 400, text: `${message}\n` });
  });
});
