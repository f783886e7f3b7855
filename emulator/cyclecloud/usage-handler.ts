import { type CycleCloudEnv, invalidInput, loadCluster, type RestCall, type RestReply } from "./context";
import type { UsageRow } from "./store";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** More intervals than this (e.g. hourly over more than a year) is refused. */
const MAX_INTERVALS = 10_000;

type Granularity = "total" | "daily" | "hourly";

/** The unit a range's ends are rounded to: hours for hourly data, days otherwise. */
const UNIT_MS: Readonly<Record<Granularity, number>> = { total: DAY_MS, daily: DAY_MS, hourly: HOUR_MS };

const floorTo = (ms: number, unit: number): number => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number): number => Math.ceil(ms / unit) * unit;

function monthStart(ms: number, monthsBack: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1);
}

function weekStart(ms: number): number {
  const day = floorTo(ms, DAY_MS);
  return day - new Date(day).getUTCDay() * DAY_MS;
}

function parseTime(query: URLSearchParams, name: "from" | "to"): number {
  const raw = query.get(name);
  const ms = raw === null ? Number.NaN : Date.parse(raw);
  if (Number.isNaN(ms)) throw invalidInput(`invalid query parameter "${name}": got ${JSON.stringify(raw)}, expected an ISO-8601 time (required when timeframe is custom)`);
  return ms;
}

/** The `[start, end)` of each timeframe at `now`, its ends rounded to `unit`. */
const TIMEFRAMES: Readonly<Record<string, (now: number, unit: number, query: URLSearchParams) => [number, number]>> = {
  monthtodate: (now, unit) => [monthStart(now, 0), ceilTo(now, unit)],
  lastmonth: (now) => [monthStart(now, 1), monthStart(now, 0)],
  weektodate: (now, unit) => [weekStart(now), ceilTo(now, unit)],
  custom: (_now, unit, query) => [floorTo(parseTime(query, "from"), unit), ceilTo(parseTime(query, "to"), unit)],
};

function parseEnum<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const found = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!found) throw invalidInput(`invalid query parameter "${name}": got "${raw}", allowed: ${allowed.join(", ")}`);
  return found;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const round = (hours: number): number => Math.round(hours * 1e6) / 1e6;

/** Core-hours a billing span contributes to `[from, to)`, counting only time up to `now`. */
export function coreHours(span: UsageRow, from: number, to: number, now: number): number {
  const start = Math.max(span.startMs, from);
  const end = Math.min(span.endMs ?? now, to, now);
  return end > start ? ((end - start) / HOUR_MS) * span.coreCount : 0;
}

interface Detail {
  vm_size: string;
  hours: number;
  core_count: number;
  region: string;
  priority: "Regular" | "Spot";
  os: "Linux";
}

function intervalUsage(spans: readonly UsageRow[], nodearrays: readonly string[], from: number, to: number, now: number) {
  const byNodearray = new Map<string, Map<string, Detail>>(nodearrays.map((n) => [n, new Map()]));
  for (const span of spans) {
    const hours = coreHours(span, from, to, now);
    const details = byNodearray.get(span.nodearray) ?? new Map<string, Detail>();
    byNodearray.set(span.nodearray, details);
    if (hours === 0) continue;
    const priority = span.spot ? "Spot" : "Regular";
    const key = `${span.machineType}/${span.region}/${priority}`;
    const detail = details.get(key) ?? { vm_size: span.machineType, hours: 0, core_count: span.coreCount, region: span.region, priority, os: "Linux" };
    detail.hours += hours;
    details.set(key, detail);
  }
  const breakdown = [...byNodearray.entries()].map(([node, details]) => {
    const list = [...details.values()].map((d) => ({ ...d, hours: round(d.hours) }));
    return { category: "nodearray", node, hours: round([...details.values()].reduce((sum, d) => sum + d.hours, 0)), details: list };
  });
  const total = round(spans.reduce((sum, s) => sum + coreHours(s, from, to, now), 0));
  return { start: iso(from), end: iso(to), total: { category: "cluster", hours: total }, breakdown };
}

/**
 * GET /clusters/{cluster}/usage: core-hours from the billing spans of the cluster's nodes (from
 * Preparing until terminated, deallocated or preempted), per interval, with a per-nodearray
 * breakdown. No cost is reported.
 */
export function getClusterUsage(env: CycleCloudEnv, call: RestCall): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const now = env.clock.now();
  const timeframe = parseEnum(call.query, "timeframe", ["monthToDate", "lastMonth", "weekToDate", "custom"], "monthToDate");
  const granularity = parseEnum<Granularity>(call.query, "granularity", ["total", "daily", "hourly"], "daily");
  const unit = UNIT_MS[granularity];
  const [start, end] = TIMEFRAMES[timeframe.toLowerCase()](now, unit, call.query);
  if (end <= start) throw invalidInput(`invalid time range: "from" (${iso(start)}) must be before "to" (${iso(end)})`);
  const step = granularity === "total" ? end - start : unit;
  if ((end - start) / step > MAX_INTERVALS) throw invalidInput(`invalid time range: more than ${MAX_INTERVALS} ${granularity} intervals`);
  const spans = env.store.usageBetween(cluster.name, start, end);
  const nodearrays = cluster.nodearrays.map((n) => n.name);
  const usage = [];
  for (let from = start; from < end; from += step) usage.push(intervalUsage(spans, nodearrays, from, Math.min(from + step, end), now));
  return { status: 200, body: { usage } };
}
